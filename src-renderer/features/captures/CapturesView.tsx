import { NO_CAPTURE_MATCHES } from '../../../src-main/shared/list-words';
import { EmptyState } from '../../components/EmptyState';
import { ErrorBanner } from '../../components/ErrorBanner';
import { SplitPane } from '../../components/SplitPane';
import { NO_FILTERS, filtersActive, useDesk } from '../../store';
import { ExchangeDetailPane } from '../exchange-detail/ExchangeDetailPane';
import { HarBar } from '../export/HarBar';
import { RedeliverButton } from '../redeliver/RedeliverButton';
import { CaptureFilters } from './CaptureFilters';
import { CaptureList } from './CaptureList';
import { DeleteCaptures } from './DeleteCaptures';
import { EmptyCaptures } from './EmptyCaptures';
import { VerifyListAgain } from './VerifyListAgain';

/** The narrowest list whose columns all fit (styles.css .capture-grid), and the narrowest readable detail. */
export const LIST_MIN_WIDTH = 700;
export const DETAIL_MIN_WIDTH = 400;

/** The main screen: the live capture list on the left, the open exchange on the right. */
export function CapturesView() {
  const count = useDesk((s) => s.captures.length);
  const loaded = useDesk((s) => s.capturesLoaded);
  const error = useDesk((s) => s.capturesError);
  const filtered = useDesk((s) => filtersActive(s.filters));
  const reload = useDesk((s) => s.reloadCaptures);
  const clearError = useDesk((s) => s.clearCapturesError);
  const setFilters = useDesk((s) => s.setFilters);

  let list;
  if (count > 0) list = <CaptureList />;
  else if (!loaded) list = <p className="muted pad">Loading captures…</p>;
  else if (error) list = null;
  else if (filtered)
    list = (
      <EmptyState title={NO_CAPTURE_MATCHES} testId="captures-none-match">
        <button type="button" className="btn btn-small" onClick={() => setFilters(NO_FILTERS)}>
          Clear filters
        </button>
      </EmptyState>
    );
  else list = <EmptyCaptures />;

  return (
    <SplitPane
      id="captures"
      testId="captures-view"
      minLeft={LIST_MIN_WIDTH}
      minRight={DETAIL_MIN_WIDTH}
      left={
        <>
          <CaptureFilters />
          <div className="capture-actions">
            <HarBar>
              <RedeliverButton />
            </HarBar>
            <VerifyListAgain />
            <DeleteCaptures />
          </div>
          <ErrorBanner error={error} context="Could not load captures" onRetry={() => void reload()} onDismiss={clearError} testId="captures-error" />
          {list}
        </>
      }
      right={<ExchangeDetailPane />}
    />
  );
}
