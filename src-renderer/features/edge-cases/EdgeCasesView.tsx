import { useEffect, useState } from 'react';
import { ErrorBanner } from '../../components/ErrorBanner';
import { typedTargetOf, useDesk, type TargetChoice } from '../../store';
import { DEFAULT_TEST_USER } from '../../../src-main/shared/model';
import { edgeCaseCountsLine } from '../../../src-main/shared/edge-case-summary';
import { ProductionConfirm } from '../composer/ProductionConfirm';
import { TargetPicker, targetUrlOf } from '../composer/TargetPicker';
import { ExchangeDetailPane } from '../exchange-detail/ExchangeDetailPane';
import { useActiveProfile } from '../profiles/use-active-profile';
import { EdgeCaseCard } from './EdgeCaseCard';

/** The catalog of edge cases: each one a click away from the operator, judged where the spec decides. */
export function EdgeCasesView() {
  const cases = useDesk((s) => s.edgeCases);
  const error = useDesk((s) => s.edgeCasesError);
  const runs = useDesk((s) => s.edgeRuns);
  const load = useDesk((s) => s.loadEdgeCases);
  const runCase = useDesk((s) => s.runEdgeCase);
  const runAll = useDesk((s) => s.runAllEdgeCases);
  const stopAll = useDesk((s) => s.stopAllEdgeCases);
  const all = useDesk((s) => s.edgeRunAll);
  const openUser = useDesk((s) => s.detail?.userId ?? null);
  const active = useActiveProfile();
  const [target, setTarget] = useState<TargetChoice>({ mode: 'profile' });
  const targetUrl = targetUrlOf(target, active.profile);
  const [userId, setUserId] = useState(openUser ?? DEFAULT_TEST_USER);
  const [filter, setFilter] = useState('');
  /** caseId null: the question is about "Run all". */
  const [confirm, setConfirm] = useState<{ caseId: string | null; message: string } | null>(null);

  useEffect(() => {
    if (cases.length === 0) void load();
  }, [cases.length, load]);

  const to = typedTargetOf(target);
  const needle = filter.trim().toLowerCase();
  const shown = needle === '' ? cases : cases.filter((c) => `${c.id} ${c.title} ${c.tests}`.toLowerCase().includes(needle));

  const send = async (caseId: string | null, confirmedProduction = false): Promise<void> => {
    const options = { ...(to ? { to } : {}), userId, confirmedProduction };
    const outcome =
      caseId === null
        ? await runAll(
            shown.map((c) => c.id),
            options,
          )
        : await runCase(caseId, options);
    if (outcome.status === 'confirm') setConfirm({ caseId, message: outcome.message });
  };

  return (
    <div className="split" data-testid="edge-cases-view">
      <div className="split-left">
        <div className="toolbar toolbar-stack">
          <div className="toolbar-row">
            <h2 className="screen-title">Edge cases</h2>
            <span className="muted">Named situations that trip operators up: one click sends it and says whether the answer met the spec.</span>
          </div>
          <TargetPicker value={target} onChange={setTarget} active={active} testId="edge-target" />
          <div className="toolbar-row">
            <label className="stack-label inline">
              Test user
              <input className="input" value={userId} onChange={(e) => setUserId(e.target.value)} spellCheck={false} data-testid="edge-user" />
            </label>
            <span className="spacer" />
            <input
              className="input search"
              type="search"
              placeholder="Filter the catalog"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              aria-label="Filter the catalog"
              data-testid="edge-filter"
            />
          </div>
          <div className="toolbar-row" data-testid="edge-run-all-bar">
            {all?.running ? (
              <button type="button" className="btn btn-small" onClick={stopAll} data-testid="edge-stop-all">
                Stop
              </button>
            ) : (
              <button
                type="button"
                className="btn btn-small btn-primary"
                disabled={targetUrl === null || shown.length === 0}
                onClick={() => void send(null)}
                data-testid="edge-run-all"
              >
                {needle === '' ? `Run all ${shown.length}` : `Run the ${shown.length} shown`}
              </button>
            )}
            {all && (
              <span className="muted" data-testid="edge-run-all-summary" data-running={all.running}>
                {all.running ? `${all.done} / ${all.total} run: ` : all.stopped ? `Stopped after ${all.done} of ${all.total}: ` : `${all.total} run: `}
                {edgeCaseCountsLine(all.summary)}
              </span>
            )}
          </div>
        </div>
        <ErrorBanner error={error} context="Could not load the catalog" onRetry={() => void load()} />
        <ul className="scroll edge-list" data-testid="edge-list">
          {shown.map((c) => (
            <EdgeCaseCard key={c.id} edge={c} state={runs[c.id]} canSend={targetUrl !== null} onSend={() => void send(c.id)} />
          ))}
        </ul>
      </div>
      <div className="split-right">
        <ExchangeDetailPane emptyHint="Send a case, then click one of its requests (#id) to see what went out and what came back." />
      </div>
      {confirm && (
        <ProductionConfirm
          title={confirm.caseId === null ? 'Send these edge cases to a production operator?' : 'Send this edge case to a production operator?'}
          verb="Send to"
          targetUrl={targetUrl}
          message={confirm.message}
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            const { caseId } = confirm;
            setConfirm(null);
            void send(caseId, true);
          }}
        />
      )}
    </div>
  );
}
