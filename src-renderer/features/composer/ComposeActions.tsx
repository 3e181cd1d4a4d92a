import { RESULT_VALUES, type ExchangeDetail } from '../../../src-main/shared/model';
import { useDesk } from '../../store';

/**
 * The composer's ways in from an exchange: edit it and send it again, or, for a pay, send one of the
 * results that settle it (same user, deposit and currency). Token requests are not replayable: their
 * API key is not stored.
 */
export function ComposeActions(props: { detail: ExchangeDetail }) {
  const fromExchange = useDesk((s) => s.openComposerFromExchange);
  const followUp = useDesk((s) => s.openComposerFollowUp);
  const { detail } = props;
  if (detail.kind === 'token') return null;
  return (
    <span className="compose-actions">
      <button type="button" className="btn btn-small btn-primary" onClick={() => void fromExchange(detail.id)} data-testid="edit-and-replay">
        Edit and replay
      </button>
      {detail.kind === 'pay' && (
        <span className="button-group" role="group" aria-label="Send a result for this pay">
          <span className="button-group-label">Send its</span>
          {RESULT_VALUES.map((r) => (
            <button key={r} type="button" className="btn btn-small" onClick={() => void followUp(detail.id, r)} data-testid={`follow-up-${r}`}>
              {r}
            </button>
          ))}
        </span>
      )}
    </span>
  );
}
