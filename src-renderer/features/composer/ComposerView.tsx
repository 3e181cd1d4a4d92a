import { ErrorBanner } from '../../components/ErrorBanner';
import type { TemplateKind } from '../../../src-main/shared/model';
import { useDesk } from '../../store';
import { ComposerStart, TEMPLATES } from './ComposerStart';
import { DraftEditor } from './DraftEditor';
import { OriginLine } from './origin-text';
import { SavedRequestsMenu } from './SavedRequestsMenu';
import { SentPane } from './SentPane';

/** Edit, re-sign and send a callback: the request on the left, the answer beside it on the right. */
export function ComposerView() {
  const origin = useDesk((s) => s.composerOrigin);
  const hasDraft = useDesk((s) => s.composerDraft !== null);
  const generation = useDesk((s) => s.composerGeneration);
  const loading = useDesk((s) => s.composerLoading);
  const error = useDesk((s) => s.composerError);
  const clearError = useDesk((s) => s.clearComposerError);
  const reset = useDesk((s) => s.resetComposerDraft);
  const openTemplate = useDesk((s) => s.openComposerTemplate);
  const templateUser = useDesk((s) => (s.composerOrigin?.kind === 'template' ? s.composerOrigin.userId : undefined));

  return (
    <div className="split composer" data-testid="composer-view">
      <div className="split-left">
        <div className="toolbar toolbar-nowrap">
          <h2 className="screen-title">Composer</h2>
          <span className="composer-origin-line">
            {origin && hasDraft ? <OriginLine origin={origin} /> : <span className="muted">edit, re-sign and send a callback</span>}
          </span>
          {hasDraft && (
            <>
              <button
                type="button"
                className="btn btn-small btn-ghost"
                onClick={reset}
                title="Back to the request as it was loaded"
                data-testid="composer-reset"
              >
                Reset
              </button>
              <select
                className="input"
                value=""
                onChange={(e) => e.target.value && void openTemplate(e.target.value as TemplateKind, templateUser)}
                aria-label="New from a template"
                data-testid="composer-new"
              >
                <option value="">New from template…</option>
                {TEMPLATES.map((t) => (
                  <option key={t.kind} value={t.kind}>
                    {t.label}
                  </option>
                ))}
              </select>
            </>
          )}
        </div>
        {/* A row of its own: in the title row it would push the editor under an overflowing toolbar at 1280 px. */}
        <div className="toolbar composer-saved-bar">
          <SavedRequestsMenu />
        </div>
        <ErrorBanner error={error} context="Composer" onDismiss={clearError} testId="composer-error" />
        <div className="scroll">
          {loading && !hasDraft && <p className="muted pad">Loading the draft…</p>}
          {hasDraft ? <DraftEditor key={generation} /> : !loading && <ComposerStart />}
        </div>
      </div>
      <div className="split-right">
        <SentPane />
      </div>
    </div>
  );
}
