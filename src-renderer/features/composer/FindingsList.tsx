import type { Finding } from '../../../src-main/shared/model';
import { FindingsCountBadge } from '../../components/FindingsCountBadge';
import { FindingLevelBadge } from '../../components/FindingLevelBadge';

/** The desk's protocol findings for the draft as it is now; a click shows the field in the editor. */
export function FindingsList(props: { findings: readonly Finding[]; pending: boolean; known: boolean; onPick?: (f: Finding) => void }) {
  return (
    <div className="composer-findings" data-testid="composer-findings" data-count={props.findings.length} data-pending={props.pending} data-known={props.known}>
      <div className="composer-findings-head">
        <span className="label">Protocol findings</span>
        {props.known && <FindingsCountBadge findings={props.findings} none="none: the body has the shape the spec describes" />}
        {props.pending && <span className="muted small">checking…</span>}
      </div>
      {props.findings.length > 0 && (
        <ul className="findings">
          {props.findings.map((f, i) => (
            <li key={i} className={`finding finding-${f.level}`} data-testid="composer-finding" data-level={f.level} data-path={f.path}>
              <FindingLevelBadge level={f.level} />
              <button type="button" className="link finding-path" onClick={() => props.onPick?.(f)} title="Show in the editor">
                {f.path}
              </button>
              <span className="finding-message">{f.message}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
