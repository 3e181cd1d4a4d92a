import { useEffect, useState } from 'react';
import type { ExchangeSummary, RedeliveryFilter, RedeliveryReport, Verdict } from '../../../src-main/shared/model';
import { formatTime, kindLabel } from '../../components/format';
import { Dialog } from '../../components/Dialog';
import { ErrorBanner } from '../../components/ErrorBanner';
import { CopyButton } from '../../components/CopyButton';
import { InlineSelectField, InlineTextField } from '../../components/InlineFields';
import type { SelectOption } from '../../components/field-props';
import { useDesk } from '../../store';
import { ProductionConfirm } from '../composer/ProductionConfirm';
import { useActiveProfile } from '../profiles/use-active-profile';

interface Form {
  failed: boolean;
  since: string;
  until: string;
  kind: '' | 'pay' | 'results';
  again: boolean;
  rate: string;
  signature: 'keep' | 'resign';
}

const KINDS: ReadonlyArray<SelectOption<Form['kind']>> = [
  { value: '', label: 'pay and results' },
  { value: 'pay', label: 'pay' },
  { value: 'results', label: 'results' },
];

const SIGNATURES: ReadonlyArray<SelectOption<Form['signature']>> = [
  { value: 'keep', label: 'keep the platform’s own' },
  { value: 'resign', label: 're-sign with the profile’s secret' },
];

function filterOf(f: Form, verdict: string): RedeliveryFilter {
  return {
    ...(f.failed ? { failed: true } : {}),
    ...(f.since.trim() ? { since: f.since.trim() } : {}),
    ...(f.until.trim() ? { until: f.until.trim() } : {}),
    ...(f.kind ? { kind: f.kind } : {}),
    ...(verdict ? { verdict: verdict as Verdict } : {}),
    ...(f.again ? { again: true } : {}),
  };
}

function Summary({ report }: { report: RedeliveryReport }) {
  return (
    <div data-testid="redeliver-report">
      <p>
        {report.stopped === 'user' ? 'Stopped' : report.stopped === 'failure' ? 'Stopped at the first failure' : 'Done'}: selected {report.selected}, sent{' '}
        <strong data-testid="redeliver-sent">{report.sent}</strong>, 2XX <strong data-testid="redeliver-ok">{report.ok}</strong>, failed {report.failed},
        skipped {report.skipped}, to <code>{report.target}</code>.
      </p>
      {report.failures.length > 0 && (
        <ul className="small">
          {report.failures.slice(0, 10).map((f) => (
            <li key={f.sourceId} data-testid="redeliver-failure">
              capture #{f.sourceId}
              {f.depositId ? (
                <>
                  {' '}
                  (deposit <code>{f.depositId}</code>)
                </>
              ) : null}{' '}
              → #{f.exchangeId ?? '-'}: {f.status ?? f.error ?? 'no answer'}
            </li>
          ))}
        </ul>
      )}
      <CopyButton text={JSON.stringify(report, null, 2)} label="Copy the report (JSON)" testId="redeliver-copy-report" />
    </div>
  );
}

/** The first captures the run will send, oldest first: what the count stands for. */
function RowsToSend(props: { items: ExchangeSummary[]; count: number }) {
  return (
    <div className="redeliver-rows" data-testid="redeliver-rows">
      <table className="table compact">
        <thead>
          <tr>
            <th>#</th>
            <th>Time</th>
            <th>Kind</th>
            <th>depositId</th>
            <th>Status then</th>
          </tr>
        </thead>
        <tbody>
          {props.items.map((x) => (
            <tr key={x.id} data-testid="redeliver-row">
              <td className="mono">#{x.id}</td>
              <td className="mono">{formatTime(x.at)}</td>
              <td>{kindLabel(x)}</td>
              <td className="mono">{x.depositId ?? '—'}</td>
              <td>{x.response ? x.response.status : (x.error ?? 'no answer')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {props.count > props.items.length && <p className="muted small">and {(props.count - props.items.length).toLocaleString()} more.</p>}
    </div>
  );
}

/**
 * Redeliver captured callbacks: the same filters as `wager-desk redeliver` (the list's kind and verdict
 * carried over), the count before anything is sent, a production confirmation, progress, and stop.
 */
export function RedeliverDialog(props: { onClose(): void }) {
  const listFilters = useDesk((s) => s.filters);
  const selection = useDesk((s) => s.redeliverSelection);
  const selecting = useDesk((s) => s.redeliverSelecting);
  const runId = useDesk((s) => s.redeliverRunId);
  const progress = useDesk((s) => s.redeliverProgress);
  const report = useDesk((s) => s.redeliverReport);
  const error = useDesk((s) => s.redeliverError);
  const select = useDesk((s) => s.selectRedelivery);
  const start = useDesk((s) => s.startRedelivery);
  const stop = useDesk((s) => s.stopRedelivery);
  const clear = useDesk((s) => s.clearRedelivery);
  const { profile } = useActiveProfile();
  const [form, setForm] = useState<Form>({
    failed: true,
    since: '',
    until: '',
    kind: listFilters.kind === 'pay' || listFilters.kind === 'results' ? listFilters.kind : '',
    again: false,
    rate: '10',
    signature: 'keep',
  });
  const [confirm, setConfirm] = useState<string | null>(null);
  const verdict = listFilters.verdict;
  const filter = filterOf(form, verdict);
  const filterKey = JSON.stringify(filter);
  const running = runId !== null;

  useEffect(() => {
    if (!running) void select(JSON.parse(filterKey) as RedeliveryFilter);
  }, [filterKey, running, select]);
  useEffect(() => () => clear(), [clear]);

  const patch = (p: Partial<Form>): void => setForm((f) => ({ ...f, ...p }));
  const go = async (confirmed: boolean): Promise<void> => {
    const rate = Number(form.rate);
    const outcome = await start({
      filter,
      ...(Number.isFinite(rate) && rate > 0 ? { rate } : {}),
      signature: form.signature,
      ...(confirmed ? { confirmedProduction: true } : {}),
    });
    if (outcome.status === 'confirm') setConfirm(outcome.message);
    else void select(filter);
  };

  const count = selection?.count ?? null;
  return (
    <Dialog title="Redeliver captured callbacks" onClose={props.onClose} testId="redeliver-dialog" wide>
      <fieldset className="redeliver-form" disabled={running}>
        <label>
          <input type="checkbox" checked={form.failed} onChange={(e) => patch({ failed: e.target.checked })} data-testid="redeliver-failed" /> Only those whose
          forward got no 2XX answer
        </label>
        <InlineTextField label="Since" value={form.since} onChange={(since) => patch({ since })} placeholder="2h, 30m or ISO 8601" testId="redeliver-since" />
        <InlineTextField label="Until" value={form.until} onChange={(until) => patch({ until })} placeholder="ISO 8601 or relative" testId="redeliver-until" />
        <InlineSelectField label="Kind" value={form.kind} onChange={(kind) => patch({ kind })} options={KINDS} testId="redeliver-kind" />
        {verdict && <p className="muted small">Verdict {verdict}, as the list shows.</p>}
        <InlineTextField
          label="Per second at most"
          value={form.rate}
          onChange={(rate) => patch({ rate })}
          inputMode="numeric"
          size={6}
          testId="redeliver-rate"
        />
        <InlineSelectField
          label="Signature"
          value={form.signature}
          onChange={(signature) => patch({ signature })}
          options={SIGNATURES}
          testId="redeliver-signature"
        />
        <label>
          <input type="checkbox" checked={form.again} onChange={(e) => patch({ again: e.target.checked })} data-testid="redeliver-again" /> Also those already
          redelivered with a 2XX answer
        </label>
      </fieldset>
      <p data-testid="redeliver-count">
        {selecting && count === null
          ? 'Counting…'
          : count === null
            ? ''
            : `${count} to send to ${profile?.operatorUrl ?? '(no operator URL in the active profile)'}${selection && selection.skipped > 0 ? `; ${selection.skipped} already redelivered` : ''}.`}
      </p>
      {selection && selection.items.length > 0 && !running && <RowsToSend items={selection.items} count={selection.count} />}
      <ErrorBanner error={error} context="Redelivery" testId="redeliver-error" />
      {running && (
        <div data-testid="redeliver-progress">
          <progress max={progress?.total ?? 1} value={progress?.done ?? 0} />{' '}
          <span>
            {progress?.done ?? 0} / {progress?.total ?? '…'} · 2XX {progress?.ok ?? 0} · failed {progress?.failed ?? 0}
          </span>{' '}
          <button type="button" className="btn btn-small" onClick={() => void stop()} data-testid="redeliver-stop">
            Stop
          </button>
        </div>
      )}
      {!running && (
        <button type="button" className="btn btn-primary" disabled={!count} onClick={() => void go(false)} data-testid="redeliver-start">
          Redeliver {count ?? ''}
        </button>
      )}
      {report && !running && <Summary report={report} />}
      {confirm !== null && (
        <ProductionConfirm
          title="Redeliver to a production operator?"
          verb="Redeliver to"
          targetUrl={profile?.operatorUrl ?? null}
          message={confirm}
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            setConfirm(null);
            void go(true);
          }}
        >
          <p className="muted small">{count} captured callbacks are sent again, as the platform sent them.</p>
        </ProductionConfirm>
      )}
    </Dialog>
  );
}
