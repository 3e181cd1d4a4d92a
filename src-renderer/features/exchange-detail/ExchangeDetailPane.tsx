import { Badge } from '../../components/Badge';
import { CopyButton } from '../../components/CopyButton';
import { exchangeLink } from '../../components/exchange-link';
import { EmptyState } from '../../components/EmptyState';
import { ErrorBanner } from '../../components/ErrorBanner';
import { StatusBadge } from '../../components/StatusBadge';
import { VerdictBadge } from '../../components/VerdictBadge';
import { formatAmount, formatDateTime, kindLabel } from '../../components/format';
import { useActiveProfile, useMinorUnitsOf } from '../profiles/use-active-profile';
import { useDesk } from '../../store';
import { ComposeActions } from '../composer/ComposeActions';
import { ClientErrorsSection } from './ClientErrorsSection';
import { CurlAction } from './CurlAction';
import { FindingsSection } from './FindingsSection';
import { RelatedSection } from './RelatedSection';
import { RequestSection } from './RequestSection';
import { ResponseSection } from './ResponseSection';
import { RefusalExplainer, refusedWithValidSignature } from './RefusalExplainer';
import { SignatureSection } from './SignatureSection';
import { WarningsSection } from './WarningsSection';

/** The open exchange, whole: verdict and diagnosis first (the question staff come with), then the bytes. */
export function ExchangeDetailPane(props: { emptyHint?: string }) {
  const openId = useDesk((s) => s.openId);
  const detail = useDesk((s) => s.detail);
  const loading = useDesk((s) => s.detailLoading);
  const error = useDesk((s) => s.detailError);
  const openExchange = useDesk((s) => s.openExchange);
  const close = useDesk((s) => s.closeExchange);
  const showTimeline = useDesk((s) => s.showTimeline);
  const deposit = useDesk((s) => s.detailDeposit);
  // Keeps the profiles read (the amounts below are written the way the exchange's own profile writes them).
  useActiveProfile();
  const minorUnits = useMinorUnitsOf(detail?.profile ?? null);

  if (openId === null) {
    return (
      <div className="detail-pane" data-testid="detail-pane">
        <EmptyState title="No exchange open" testId="detail-empty">
          <p>{props.emptyHint ?? 'Pick a capture on the left to see its request, signature verdict, findings and response.'}</p>
          {!props.emptyHint && (
            <p className="muted">
              Keyboard: <kbd>↑</kbd> <kbd>↓</kbd> move, <kbd>Enter</kbd> opens.
            </p>
          )}
        </EmptyState>
      </div>
    );
  }

  return (
    <div className="detail-pane" data-testid="detail-pane" data-exchange-id={openId}>
      <ErrorBanner error={error} context={`Exchange #${openId}`} onRetry={() => void openExchange(openId)} onDismiss={close} />
      {!detail && loading && <p className="muted pad">Loading exchange #{openId}…</p>}
      {detail && (
        <>
          <header className="detail-head">
            <div className="detail-title">
              <span className="detail-id">#{detail.id}</span>
              <Badge tone="blue" testId="detail-kind">
                {kindLabel(detail)}
              </Badge>
              <VerdictBadge verdict={detail.signature.verdict} />
              <StatusBadge x={detail} testId="detail-status" />
              <button type="button" className="btn btn-ghost btn-small close" onClick={close} aria-label="Close" title="Close">
                ✕
              </button>
            </div>
            <div className="detail-sub muted">
              {formatDateTime(detail.at)}
              {detail.depositId && (
                <>
                  {' · deposit '}
                  <code>{detail.depositId}</code>
                </>
              )}
              {detail.userId && (
                <>
                  {' · user '}
                  <code>{detail.userId}</code>
                </>
              )}
              {(detail.amount !== null || detail.currency !== null) && (
                <>
                  {' · '}
                  <span className="nowrap" data-testid="detail-amount">
                    {formatAmount(detail.amount, detail.currency, minorUnits, 'detail')}
                  </span>
                </>
              )}
              {' · '}
              <a href={exchangeLink(detail.id)} title="This exchange's address: a link for a ticket or a chat" data-testid="exchange-link">
                link
              </a>
            </div>
            <div className="detail-actions">
              <ComposeActions detail={detail} />
              <CurlAction key={detail.id} id={detail.id} />
              <CopyButton key={`link-${detail.id}`} text={exchangeLink(detail.id)} label="Copy link" testId="copy-link" />
              {detail.depositId && (
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() => void showTimeline(detail.depositId!, detail.profile)}
                  data-testid="open-timeline"
                >
                  Deposit timeline →
                </button>
              )}
            </div>
          </header>
          <div className="detail-body" key={detail.id}>
            <WarningsSection detail={detail} deposit={deposit} />
            <SignatureSection detail={detail} />
            {refusedWithValidSignature(detail) && <RefusalExplainer detail={detail} />}
            <FindingsSection detail={detail} />
            <ClientErrorsSection detail={detail} />
            <RequestSection detail={detail} />
            <ResponseSection detail={detail} />
            <RelatedSection detail={detail} />
          </div>
        </>
      )}
    </div>
  );
}
