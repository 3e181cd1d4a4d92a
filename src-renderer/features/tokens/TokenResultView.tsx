import type { TokenResult } from '../../../src-main/shared/model';
import { Badge } from '../../components/Badge';
import { CopyButton } from '../../components/CopyButton';
import { JsonView } from '../../components/JsonView';
import { StatusBadge } from '../../components/StatusBadge';
import { formatDateTime } from '../../components/format';
import type { RecentTokenUser } from '../../store';
import { useOpenInCaptures } from '../../components/use-open-exchange';
import { spanText, useNow } from './use-now';

const CLAIMS: Array<{ claim: 'exp' | 'iat' | 'nbf'; label: string }> = [
  { claim: 'iat', label: 'Issued (iat)' },
  { claim: 'nbf', label: 'Valid from (nbf)' },
  { claim: 'exp', label: 'Expires (exp)' },
];

function TimeLeft(props: { exp: string }) {
  const now = useNow(true);
  const left = (Date.parse(props.exp) - now) / 1000;
  return left > 0 ? (
    <Badge tone={left < 300 ? 'amber' : 'green'} testId="token-time-left">
      {spanText(left)} left
    </Badge>
  ) : (
    <Badge tone="red" testId="token-time-left">
      expired {spanText(left)} ago
    </Badge>
  );
}

/** What came back: the status, the token (copyable), its decoded claims with dates, the raw body. */
export function TokenResultView(props: { result: TokenResult; requestedFor: RecentTokenUser | null }) {
  const { result } = props;
  const decoded = result.decoded;
  const openInCaptures = useOpenInCaptures();
  return (
    <section className="card" data-testid="token-result" data-status={result.status ?? 'none'}>
      <div className="card-head">
        <h3 className="card-title">
          {result.token ? 'Token received' : 'No token'}
          {props.requestedFor && (
            <span className="muted small">
              {' '}
              for <code>{props.requestedFor.userId}</code>
            </span>
          )}
        </h3>
        <StatusBadge
          x={{
            direction: 'outbound',
            error: result.error,
            answeredBy: result.status === null ? null : 'operator',
            deskCause: null,
            signature: { verdict: null },
            response: result.status === null ? null : { status: result.status },
          }}
          testId="token-status"
        />
        <span className="spacer" />
        <button
          type="button"
          className="link"
          onClick={() => openInCaptures(result.exchangeId)}
          title="The recorded request (API key replaced by its fingerprint)"
        >
          #{result.exchangeId}
        </button>
      </div>
      {result.error && (
        <p className="error-words" role="alert" data-testid="token-error">
          {result.error}
        </p>
      )}
      {result.token && (
        <div className="token-box">
          <code className="token-text" data-testid="token-text">
            {result.token}
          </code>
          <CopyButton text={result.token} label="Copy token" testId="token-copy" />
        </div>
      )}
      {decoded && (
        <>
          <p className="note" data-testid="token-note">
            ⚠ {decoded.note}
          </p>
          {Object.keys(decoded.dates).length > 0 && (
            <table className="table claims-table" data-testid="token-dates">
              <tbody>
                {CLAIMS.filter((c) => decoded.dates[c.claim]).map((c) => (
                  <tr key={c.claim} data-claim={c.claim}>
                    <th>{c.label}</th>
                    <td data-testid={`token-${c.claim}`}>{formatDateTime(decoded.dates[c.claim]!)}</td>
                    <td>{c.claim === 'exp' && <TimeLeft exp={decoded.dates.exp!} />}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <div className="token-parts">
            <div>
              <div className="label">Header</div>
              {decoded.header ? <JsonView value={decoded.header} testId="token-header" /> : <p className="muted">does not decode</p>}
            </div>
            <div>
              <div className="label">Payload (claims)</div>
              {decoded.payload ? <JsonView value={decoded.payload} testId="token-payload" /> : <p className="muted">does not decode</p>}
            </div>
          </div>
        </>
      )}
      {result.body !== null && (
        <details className="raw-details">
          <summary>Response body as received</summary>
          <pre className="code" data-testid="token-body">
            {result.body}
          </pre>
        </details>
      )}
    </section>
  );
}
