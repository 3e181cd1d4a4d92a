import type { ExchangeDetail } from '../../../src-main/shared/model';
import { isFaultNote } from '../../../src-main/shared/answered-by';
import { FindingsCountBadge } from '../../components/FindingsCountBadge';
import { FindingLevelBadge } from '../../components/FindingLevelBadge';
import { Section } from '../../components/Section';

const WHAT: Record<string, string> = { pay: 'a pay request', results: 'a result request' };

/**
 * The protocol findings as a list (level, field path, message); the body view shows them at their fields
 * too. A fault's note is not about the message: the Response section shows it, with who answered.
 */
export function FindingsSection(props: { detail: ExchangeDetail }) {
  const { kind } = props.detail;
  const findings = props.detail.findings.filter((f) => !isFaultNote(f));
  const aside = <FindingsCountBadge findings={findings} none="none" />;
  return (
    <Section title="Protocol findings" aside={aside} testId="findings-section">
      {findings.length === 0 ? (
        <p className="muted">{WHAT[kind] ? `The body has the shape of ${WHAT[kind]} as the spec describes it.` : 'Nothing to report.'}</p>
      ) : (
        <ul className="findings" data-testid="findings">
          {findings.map((f, i) => (
            <li key={i} className={`finding finding-${f.level}`} data-testid="finding" data-level={f.level} data-path={f.path}>
              <FindingLevelBadge level={f.level} />
              <code className="finding-path">{f.path}</code>
              <span className="finding-message">{f.message}</span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
