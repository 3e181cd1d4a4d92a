import type { Finding } from '../../../src-main/shared/model';
import { Badge } from '../../components/Badge';
import { FindingLevelBadge } from '../../components/FindingLevelBadge';

/** The desk's protocol findings for the draft as it is now; a click shows the field in the editor. */
export function FindingsList(props: { findings: readonly Finding[]; pending: boolean; known: boolean; onPick?: (f: Finding) => void }) {
  const errors = props.findings.filter((f) => f.level === 'error').length;
  return (
    <div className="composer-findings" data-testid="composer-findings" data-count={props.findings.length} data-pending={props.pending} data-known={props.known}>
      <div className="composer-findings-head">
        <span className="label">Protocol findings</span>
        {!props.known ? null : props.findings.length === 0 ? (
          <Badge tone="green">none: the body has the shape the spec describes</Badge>
        ) : (
          <Badge tone={errors > 0 ? 'red' : 'amber'}>
            {errors > 0 ? `${errors} error${errors === 1 ? '' : 's'}` : `${props.findings.length} note${props.findings.length === 1 ? '' : 's'}`}
          </Badge>
        )}
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
