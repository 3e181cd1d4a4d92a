import { memo } from 'react';
import type { ExchangeSummary } from '../../../src-main/shared/model';
import { Badge } from '../../components/Badge';
import { StatusBadge } from '../../components/StatusBadge';
import { VerdictBadge } from '../../components/VerdictBadge';
import { formatAmount, formatDateTime, formatTime, kindLabel, originLabel } from '../../components/format';
import { middleEllipsis } from '../../../src-main/shared/middle-ellipsis';
import { pathOutsidePrefix } from '../../components/callback-prefix';
import { useMinorUnitsOf } from '../profiles/use-active-profile';

export const ROW_HEIGHT = 34;
/** "results · REFUND" fits the kind column at its narrowest; a longer (unexpected) result is cut in the middle, whole in the tooltip. */
const KIND_ROOM = 17;

interface Props {
  x: ExchangeSummary;
  selected: boolean;
  opened: boolean;
  top: number;
  /** Characters that fit in the depositId and userId columns (measured by the list). */
  depositRoom: number;
  userRoom: number;
  /** Characters that fit in the Profile column; null: no such column (the list is one profile's). */
  profileRoom: number | null;
  /** The active profile's callback prefix: a callback posted elsewhere shows its path. */
  callbackPrefix: string;
  onPick(id: number): void;
}

function IdCell(props: { value: string | null; room: number; testId?: string }) {
  if (props.value === null) {
    return (
      <span className="cell mono" data-testid={props.testId}>
        <span className="muted">—</span>
      </span>
    );
  }
  const shown = middleEllipsis(props.value, props.room);
  return (
    <span className="cell mono" title={props.value} data-testid={props.testId} data-value={props.value}>
      {shown}
    </span>
  );
}

/** Whose capture it is, in a list that spans profiles: a long name keeps both ends (whole in the tooltip). */
function ProfileCell(props: { profile: string | null; room: number }) {
  if (props.profile === null) {
    return (
      <span className="cell muted" title="No profile's callback prefix received it" data-testid="row-profile" data-value="">
        unassigned
      </span>
    );
  }
  return (
    <span className="cell mono" title={props.profile} data-testid="row-profile" data-value={props.profile}>
      {middleEllipsis(props.profile, props.room)}
    </span>
  );
}

/**
 * One capture: time, kind and result, ids, amount, verdict, response status. Nothing is cut: the kind
 * and result sit on their own line with the origin and the error count under them, ids too long for
 * their column keep both ends (the full id in the tooltip). Memoized: lists are long.
 */
export const CaptureRow = memo(function CaptureRow({ x, selected, opened, top, depositRoom, userRoom, profileRoom, callbackPrefix, onPick }: Props) {
  const classes = ['capture-row', 'capture-grid'];
  if (profileRoom !== null) classes.push('with-profile');
  if (selected) classes.push('selected');
  if (opened) classes.push('opened');
  const origin = x.direction === 'outbound' ? originLabel(x.origin) : null;
  const elsewhere = pathOutsidePrefix(x, callbackPrefix);
  const minorUnits = useMinorUnitsOf(x.profile);
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
      {profileRoom !== null && <ProfileCell profile={x.profile} room={profileRoom} />}
      <span className="cell cell-kind" data-testid="row-kind">
        <span className={`kind kind-${x.kind}`} title={kindLabel(x)}>
          {middleEllipsis(kindLabel(x), KIND_ROOM)}
        </span>
        {(origin !== null || x.errorCount > 0 || elsewhere !== null) && (
          <span className="kind-sub">
            {origin !== null && <span className="muted">{origin}</span>}
            {elsewhere !== null && (
              <span className="muted mono" title={`Posted to ${elsewhere}; the profile expects ${callbackPrefix}/${x.kind}`} data-testid="row-path">
                {middleEllipsis(elsewhere, KIND_ROOM)}
              </span>
            )}
            {x.errorCount > 0 && (
              <Badge tone="red" title={`${x.errorCount} protocol error${x.errorCount === 1 ? '' : 's'} in the body`} testId="row-errors">
                ⚠ {x.errorCount}
              </Badge>
            )}
          </span>
        )}
      </span>
      <IdCell value={x.depositId} room={depositRoom} testId="row-deposit" />
      <IdCell value={x.userId} room={userRoom} testId="row-user" />
      <span className="cell num" title={formatAmount(x.amount, x.currency, minorUnits, 'detail')} data-testid="row-amount">
        {formatAmount(x.amount, x.currency, minorUnits)}
      </span>
      <span className="cell">
        <VerdictBadge verdict={x.signature.verdict} testId="row-verdict" />
      </span>
      <span className="cell">
        <StatusBadge x={x} testId="row-status" />
      </span>
    </div>
  );
});
