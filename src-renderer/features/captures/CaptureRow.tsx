import { memo } from 'react';
import type { ExchangeSummary } from '../../../src-main/shared/model';
import { Badge } from '../../components/Badge';
import { StatusBadge } from '../../components/StatusBadge';
import { VerdictBadge } from '../../components/VerdictBadge';
import { formatAmount, formatDateTime, formatTime, kindLabel, originLabel } from '../../components/format';

export const ROW_HEIGHT = 34;

interface Props {
  x: ExchangeSummary;
  selected: boolean;
  opened: boolean;
  top: number;
  onPick(id: number): void;
}

/** One capture: time, kind and result, ids, amount, verdict, response status. Memoized: lists are long. */
export const CaptureRow = memo(function CaptureRow({ x, selected, opened, top, onPick }: Props) {
  const classes = ['capture-row', 'capture-grid'];
  if (selected) classes.push('selected');
  if (opened) classes.push('opened');
  return (
    <div
      id={`capture-${x.id}`}
      role="option"
      aria-selected={selected}
      className={classes.join(' ')}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      onClick={() => onPick(x.id)}
      data-testid="capture-row"
      data-id={x.id}
      data-verdict={x.signature.verdict ?? 'none'}
    >
      <span className="cell mono muted" title={formatDateTime(x.at)}>
        {formatTime(x.at)}
      </span>
      <span className="cell">
        <span className={`kind kind-${x.kind}`}>{kindLabel(x)}</span>
        {x.direction === 'outbound' && <span className="muted small"> · {originLabel(x.origin)}</span>}
        {x.errorCount > 0 && (
          <Badge tone="red" title={`${x.errorCount} protocol error${x.errorCount === 1 ? '' : 's'} in the body`} testId="row-errors">
            ⚠ {x.errorCount}
          </Badge>
        )}
      </span>
      <span className="cell mono ellipsis" title={x.depositId ?? ''} data-testid="row-deposit">
        {x.depositId ?? <span className="muted">—</span>}
      </span>
      <span className="cell mono ellipsis" title={x.userId ?? ''}>
        {x.userId ?? <span className="muted">—</span>}
      </span>
      <span className="cell num">{formatAmount(x.amount, x.currency)}</span>
      <span className="cell">
        <VerdictBadge verdict={x.signature.verdict} testId="row-verdict" />
      </span>
      <span className="cell">
        <StatusBadge status={x.response?.status ?? null} error={x.error} />
      </span>
    </div>
  );
});
