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
/**
 * With every profile's captures, the list has a Profile column too (.capture-grid.with-profile): it gets
 * that column's room from the detail, so no other column is narrowed below what it must show.
 */
export const LIST_WITH_PROFILE_MIN_WIDTH = 800;
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
  const allProfiles = useDesk((s) => s.filters.allProfiles);

  let list;
  // Keyed by the column set: the list measures its columns' room once mounted, and the Profile column comes and goes.
  if (count > 0) list = <CaptureList key={allProfiles ? 'with-profile' : 'one-profile'} withProfile={allProfiles} />;
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
      minLeft={allProfiles ? LIST_WITH_PROFILE_MIN_WIDTH : LIST_MIN_WIDTH}
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
