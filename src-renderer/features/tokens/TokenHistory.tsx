import type { ExchangeSummary } from '../../../src-main/shared/model';
import { StatusBadge } from '../../components/StatusBadge';
import { formatDateTime, formatDuration } from '../../components/format';
import { useOpenInCaptures } from '../../components/use-open-exchange';

/** Past token requests, newest first; a row fills the form with its user again. */
export function TokenHistory(props: { items: ExchangeSummary[]; onPick(userId: string): void }) {
  const openInCaptures = useOpenInCaptures();
  if (props.items.length === 0) return <p className="muted">No token requested yet.</p>;
  return (
    <table className="table" data-testid="token-history">
      <thead>
        <tr>
          <th>When</th>
          <th>userId</th>
          <th>Status</th>
          <th className="num">Took</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {props.items.map((x) => (
          <tr key={x.id} className="clickable" onClick={() => x.userId && props.onPick(x.userId)} title="Use this user again" data-testid="token-history-row">
            <td>{formatDateTime(x.at)}</td>
            <td className="mono">{x.userId ?? '—'}</td>
            <td>
              <StatusBadge x={x} />
            </td>
            <td className="num">{formatDuration(x.durationMs)}</td>
            <td>
              <button
                type="button"
                className="link"
                onClick={(e) => {
                  e.stopPropagation();
                  openInCaptures(x.id);
                }}
              >
                #{x.id}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
