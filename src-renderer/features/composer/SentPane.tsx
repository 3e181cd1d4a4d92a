import { EmptyState } from '../../components/EmptyState';
import { Section } from '../../components/Section';
import { StatusBadge } from '../../components/StatusBadge';
import { VerdictBadge } from '../../components/VerdictBadge';
import { formatDuration, originLabel } from '../../components/format';
import { useDesk } from '../../store';
import { ClientErrorsSection } from '../exchange-detail/ClientErrorsSection';
import { RequestSection } from '../exchange-detail/RequestSection';
import { ResponseSection } from '../exchange-detail/ResponseSection';
import { DiffView } from './DiffView';
import { useOpenInCaptures } from '../../components/use-open-exchange';
import { notActedAnswer } from '../../../src-main/shared/not-acted';

/** The answer to the last send, beside the request: status, body, what was sent, and how it differs from its source. */
export function SentPane() {
  const sent = useDesk((s) => s.composerSent);
  const sending = useDesk((s) => s.composerSending);
  const diff = useDesk((s) => s.composerDiff);
  const diffError = useDesk((s) => s.composerDiffError);
  const openInCaptures = useOpenInCaptures();

  if (!sent) {
    return (
      <div className="detail-pane" data-testid="sent-pane">
        {sending ? (
          <p className="muted pad">Sending…</p>
        ) : (
          <EmptyState title="The answer appears here" testId="sent-empty">
            <p>Send the request on the left: the operator's status and body show here, the new exchange is linked to its source and compared with it.</p>
          </EmptyState>
        )}
      </div>
    );
  }

  const notActed = notActedAnswer(sent);
  return (
    <div className="detail-pane" data-testid="sent-pane" data-exchange-id={sent.id}>
      <header className="detail-head">
        <div className="detail-title">
          <span className="detail-id">#{sent.id}</span>
          <span className="muted">{originLabel(sent.origin)}</span>
          <StatusBadge x={sent} notActed={notActed} testId="sent-status" />
          <VerdictBadge verdict={sent.signature.verdict} testId="sent-verdict" />
          {sending && <span className="muted small">sending again…</span>}
        </div>
        <div className="detail-sub muted">
          to <code data-testid="sent-target">{sent.target}</code> · {formatDuration(sent.durationMs)}
          {sent.sourceId !== null && (
            <>
              {' · from '}
              <button type="button" className="link" onClick={() => openInCaptures(sent.sourceId!)} data-testid="sent-source">
                #{sent.sourceId}
              </button>
            </>
          )}
        </div>
        <div className="detail-actions">
          <button type="button" className="btn btn-small" onClick={() => openInCaptures(sent.id)} data-testid="sent-open">
            Open #{sent.id} in Captures →
          </button>
        </div>
      </header>
      <div className="detail-body">
        {notActed && (
          <div className="alert alert-warn" role="status" data-testid="sent-not-acted">
            <strong>⚑ Not acted on:</strong> {notActed}.
          </div>
        )}
        <ResponseSection detail={sent} />
        <ClientErrorsSection detail={sent} />
        {sent.sourceId !== null && (
          <Section title={`Compared with its source #${sent.sourceId}`} testId="diff-section">
            <DiffView entries={diff} error={diffError} before={`#${sent.sourceId} (source)`} after={`#${sent.id} (sent)`} />
          </Section>
        )}
        <Section title="Signature sent" aside={<VerdictBadge verdict={sent.signature.verdict} />} testId="sent-signature">
          <ul className="notes">
            {sent.signature.notes.map((n, i) => (
              <li key={i}>{n}</li>
            ))}
          </ul>
        </Section>
        <RequestSection detail={sent} />
      </div>
    </div>
  );
}
