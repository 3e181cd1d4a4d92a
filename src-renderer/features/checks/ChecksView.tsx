import { useEffect, useState, type FormEvent } from 'react';
import { ErrorBanner } from '../../components/ErrorBanner';
import { formatDateTime } from '../../components/format';
import { typedTargetOf, useDesk, type TargetChoice } from '../../store';
import { DEFAULT_TEST_USER } from '../../../src-main/shared/model';
import { readStored, writeStored } from '../../store/recent-values';
import { ProductionConfirm } from '../composer/ProductionConfirm';
import { TargetPicker, targetUrlOf } from '../composer/TargetPicker';
import { ExchangeDetailPane } from '../exchange-detail/ExchangeDetailPane';
import { useActiveProfile } from '../profiles/use-active-profile';
import { CheckRow } from './CheckRow';
import { ReportView } from './ReportView';

const USER_KEY = 'wager-desk.check-user';
const isString = (v: unknown): v is string => typeof v === 'string' && v !== '';

function Progress() {
  const running = useDesk((s) => s.checkRunning);
  const progress = useDesk((s) => s.checkProgress);
  const total = useDesk((s) => s.checkTotal);
  if (!running) return null;
  const pct = total ? Math.round((progress.length / total) * 100) : 0;
  return (
    <section className="card" data-testid="check-progress" data-done={progress.length}>
      <div className="card-head">
        <h3 className="card-title">Running…</h3>
        <span className="muted">{total ? `${progress.length} of ${total} checks` : 'starting'}</span>
      </div>
      <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
        <div className="progress-bar" style={{ width: `${pct}%` }} />
      </div>
      <ol className="check-list">
        {progress.map((c) => (
          <CheckRow key={c.id} check={c} />
        ))}
      </ol>
    </section>
  );
}

function PastReports() {
  const reports = useDesk((s) => s.checkReports);
  const current = useDesk((s) => s.checkReport?.id ?? null);
  const open = useDesk((s) => s.openCheckReport);
  const error = useDesk((s) => s.checkReportsError);
  const clearError = useDesk((s) => s.clearCheckReportsError);
  const banner = <ErrorBanner error={error} context="The past reports could not be read" onDismiss={clearError} testId="check-reports-error" />;
  if (reports.length === 0) return banner;
  return (
    <section className="card" data-testid="past-reports">
      <h3 className="card-title">Past reports</h3>
      {banner}
      <table className="table">
        <thead>
          <tr>
            <th>#</th>
            <th>When</th>
            <th>Target</th>
            <th>User</th>
            <th className="num">Passed</th>
            <th className="num">Failed</th>
          </tr>
        </thead>
        <tbody>
          {reports.map((r) => (
            <tr
              key={r.id}
              className={`clickable${r.id === current ? ' selected' : ''}`}
              onClick={() => void open(r.id)}
              data-testid="past-report"
              data-report={r.id}
            >
              <td className="mono">{r.id}</td>
              <td>{formatDateTime(r.at)}</td>
              <td className="mono ellipsis">{r.target}</td>
              <td className="mono">{r.userId}</td>
              <td className="num">{r.passed}</td>
              <td className={r.failed > 0 ? 'num text-error' : 'num'}>{r.failed}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The conformance check: pick a target and a test user, run, watch each check, read and export the report. */
export function ChecksView() {
  const running = useDesk((s) => s.checkRunning);
  const report = useDesk((s) => s.checkReport);
  const error = useDesk((s) => s.checkError);
  const run = useDesk((s) => s.runCheck);
  const loadReports = useDesk((s) => s.loadCheckReports);
  const clearError = useDesk((s) => s.clearCheckError);
  const openUser = useDesk((s) => s.detail?.userId ?? null);
  const active = useActiveProfile();
  const [target, setTarget] = useState<TargetChoice>({ mode: 'profile' });
  const targetUrl = targetUrlOf(target, active.profile);
  const [userId, setUserId] = useState(() => openUser ?? readStored(USER_KEY, isString, DEFAULT_TEST_USER));
  const [confirm, setConfirm] = useState<string | null>(null);
  // Another URL never reads the profile's balance probe: its money comes from its own endpoint, if given.
  const [balanceUrl, setBalanceUrl] = useState('');

  useEffect(() => {
    void loadReports();
  }, [loadReports]);

  const start = async (confirmedProduction: boolean): Promise<void> => {
    writeStored(USER_KEY, userId.trim());
    const to = typedTargetOf(target);
    const outcome = await run({ userId, ...(to ? { to, balanceUrl } : {}), confirmedProduction });
    if (outcome.status === 'confirm') setConfirm(outcome.message);
  };
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    void start(false);
  };

  return (
    <div className="split" data-testid="checks-view">
      <div className="split-left">
        <div className="toolbar">
          <h2 className="screen-title">Conformance check</h2>
          <span className="muted">Sends a fixed series of callbacks with fresh ids and judges each answer against the spec.</span>
        </div>
        <ErrorBanner error={error} context="The check did not run" onDismiss={clearError} testId="check-error" />
        <div className="scroll pane-pad stack">
          <form className="card" onSubmit={submit} data-testid="check-form">
            <h3 className="card-title">Run against</h3>
            <TargetPicker value={target} onChange={setTarget} active={active} testId="check-target" />
            {target.mode === 'url' && (
              <label className="stack-label">
                Balance URL of that server (optional)
                <input
                  className="input"
                  value={balanceUrl}
                  onChange={(e) => setBalanceUrl(e.target.value)}
                  placeholder="http://host/test/balance/{userId}"
                  spellCheck={false}
                  data-testid="check-balance-url"
                />
                <span className="muted small">
                  the profile&apos;s balance probe reads its own operator only; without this, money comes from the answers or is not observable
                </span>
              </label>
            )}
            <div className="toolbar-row">
              <label className="stack-label inline">
                Test user
                <input className="input" value={userId} onChange={(e) => setUserId(e.target.value)} spellCheck={false} data-testid="check-user" />
              </label>
              <span className="muted small">a user the operator knows, with some balance: the check pays small amounts</span>
              <span className="spacer" />
              <button type="submit" className="btn btn-primary" disabled={running || userId.trim() === '' || targetUrl === null} data-testid="check-run">
                {running ? 'Running…' : 'Run the check'}
              </button>
            </div>
          </form>
          <Progress />
          {!running && report && <ReportView report={report} />}
          <PastReports />
        </div>
      </div>
      <div className="split-right">
        <ExchangeDetailPane emptyHint="Click a check's exchange (#id) to see the request the check sent and the operator's answer." />
      </div>
      {confirm !== null && (
        <ProductionConfirm
          title="Run the check against a production operator?"
          verb="Run against"
          targetUrl={targetUrl}
          message={confirm}
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            setConfirm(null);
            void start(true);
          }}
        >
          <p className="muted small">The check pays, wins and refunds small amounts for the test user.</p>
        </ProductionConfirm>
      )}
    </div>
  );
}
