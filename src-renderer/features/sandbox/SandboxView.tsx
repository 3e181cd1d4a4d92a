import { useEffect, useState, type FormEvent } from 'react';
import type { SandboxDeposit } from '../../../src-main/shared/model';
import { Badge, type Tone } from '../../components/Badge';
import { ConfirmDialog } from '../../components/Dialog';
import { EmptyState } from '../../components/EmptyState';
import { ErrorBanner } from '../../components/ErrorBanner';
import { formatDateTime } from '../../components/format';
import { middleEllipsis } from '../../../src-main/shared/middle-ellipsis';
import { useDesk } from '../../store';
import { FaultsPanel } from './FaultsPanel';

const OUTCOME_TONE: Record<string, Tone> = { WIN: 'green', DRAW: 'blue', LOSE: 'grey', REFUND: 'amber' };

/**
 * Characters of an id a cell shows: a check's 1,000-character userId would otherwise push the Balances
 * column off the card and wrap a deposit id over three lines. The whole id is in the tooltip.
 */
const ID_ROOM = 24;

function IdText(props: { id: string; testId?: string }) {
  return (
    <span className="mono nowrap" title={props.id} data-testid={props.testId}>
      {middleEllipsis(props.id, ID_ROOM)}
    </span>
  );
}

function BalanceForm(props: { userId?: string; balance?: number; onDone?: () => void }) {
  const setBalance = useDesk((s) => s.setSandboxBalance);
  const [userId, setUserId] = useState(props.userId ?? '');
  const [value, setValue] = useState(props.balance === undefined ? '' : String(props.balance));
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const n = Number(value);
    if (userId.trim() === '') return setProblem('Give the userId.');
    if (value.trim() === '' || !Number.isFinite(n)) return setProblem('The balance must be a number, like 0 or 12.5.');
    setProblem(null);
    if (await setBalance(userId.trim(), n)) props.onDone?.();
  };
  return (
    <form className="inline-form" onSubmit={(e) => void submit(e)} data-testid="balance-form">
      {props.userId === undefined && (
        <input
          className="input"
          placeholder="userId"
          value={userId}
          onChange={(e) => setUserId(e.target.value)}
          aria-label="userId"
          data-testid="balance-user"
        />
      )}
      <input
        className="input amount-input"
        inputMode="decimal"
        placeholder="balance"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        aria-label="New balance"
        data-testid="balance-value"
      />
      <button type="submit" className="btn btn-small btn-primary" data-testid="balance-set">
        Set
      </button>
      {problem && <span className="text-error small">{problem}</span>}
    </form>
  );
}

function DepositRow(props: { d: SandboxDeposit }) {
  const showTimeline = useDesk((s) => s.showTimeline);
  const { d } = props;
  return (
    <tr data-testid="sandbox-deposit" data-deposit={d.depositId}>
      <td>
        <button type="button" className="link nowrap" onClick={() => void showTimeline(d.depositId)} title={`Open the timeline of deposit ${d.depositId}`}>
          <span className="mono">{middleEllipsis(d.depositId, ID_ROOM)}</span>
        </button>
      </td>
      <td>
        <IdText id={d.userId} />
      </td>
      <td className="num nowrap">
        {d.amount} {d.currency}
      </td>
      <td>{d.outcome ? <Badge tone={OUTCOME_TONE[d.outcome] ?? 'grey'}>{d.outcome}</Badge> : <Badge tone="purple">open</Badge>}</td>
      <td className="muted">{formatDateTime(d.paidAt)}</td>
      <td className="muted">{formatDateTime(d.settledAt)}</td>
    </tr>
  );
}

/** The sandbox operator's books: who has what, which deposits are open or settled; set a balance, reset. */
export function SandboxView() {
  const state = useDesk((s) => s.sandbox);
  const error = useDesk((s) => s.sandboxError);
  const load = useDesk((s) => s.loadSandbox);
  const reset = useDesk((s) => s.resetSandbox);
  const clearError = useDesk((s) => s.clearSandboxError);
  const setBalance = useDesk((s) => s.setSandboxBalance);
  const mode = useDesk((s) => s.status?.proxy.mode ?? null);
  const [editing, setEditing] = useState<string | null>(null);
  const [confirmReset, setConfirmReset] = useState(false);

  // The books change as callbacks reach the proxy: follow them while this screen is open.
  const follow = useDesk((s) => s.followSandbox);
  useEffect(() => follow(), [follow]);

  return (
    <div className="page" data-testid="sandbox-view">
      <div className="page-head">
        <h2 className="screen-title">Sandbox operator</h2>
        <span className="muted">
          Answers callbacks when the proxy has no upstream{mode === 'forward' ? ' (the proxy forwards right now, so the sandbox is idle)' : ''}.
        </span>
        <span className="spacer" />
        <button type="button" className="btn btn-small" onClick={() => void load()}>
          Refresh
        </button>
        <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => setConfirmReset(true)} data-testid="sandbox-reset">
          Reset…
        </button>
      </div>
      <ErrorBanner error={error} context="Sandbox" onDismiss={clearError} testId="sandbox-error" />
      <FaultsPanel />
      {state && (
        <div className="page-grid page-stack">
          <section className="card">
            <h3 className="card-title">Balances</h3>
            <p className="muted small">
              A user the sandbox has not seen starts with <strong data-testid="starting-balance">{state.startingBalance}</strong>. Set a balance below the entry
              amount to provoke <code>INSUFFICIENT_BALANCE</code> on the next pay.
            </p>
            {state.users.length === 0 ? (
              <p className="muted">No user yet.</p>
            ) : (
              <table className="table" data-testid="sandbox-users">
                <thead>
                  <tr>
                    <th>userId</th>
                    <th className="num">Balance</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {state.users.map((u) => (
                    <tr key={u.userId} data-testid="sandbox-user" data-user={u.userId}>
                      <td>
                        <IdText id={u.userId} testId="sandbox-user-id" />
                      </td>
                      <td className="num" data-testid="sandbox-balance">
                        {u.balance}
                      </td>
                      <td className="row-actions">
                        {editing === u.userId ? (
                          <BalanceForm userId={u.userId} balance={u.balance} onDone={() => setEditing(null)} />
                        ) : (
                          <>
                            <button type="button" className="btn btn-small" onClick={() => setEditing(u.userId)} data-testid="sandbox-edit">
                              Set…
                            </button>{' '}
                            <button
                              type="button"
                              className="btn btn-small"
                              onClick={() => void setBalance(u.userId, 0)}
                              title="The next pay of this user is refused"
                              data-testid="sandbox-zero"
                            >
                              Set to 0
                            </button>
                          </>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <div className="card-foot">
              <span className="muted small">Another user:</span> <BalanceForm />
            </div>
          </section>
          <section className="card">
            <h3 className="card-title">Deposits</h3>
            {state.deposits.length === 0 ? (
              <EmptyState title="No deposit yet">
                <p>Pays the sandbox accepted appear here with their outcome once a result settles them.</p>
              </EmptyState>
            ) : (
              <table className="table" data-testid="sandbox-deposits">
                <thead>
                  <tr>
                    <th>depositId</th>
                    <th>userId</th>
                    <th className="num">Amount</th>
                    <th>Outcome</th>
                    <th>Paid</th>
                    <th>Settled</th>
                  </tr>
                </thead>
                <tbody>
                  {state.deposits.map((d) => (
                    <DepositRow key={d.depositId} d={d} />
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </div>
      )}
      {confirmReset && (
        <ConfirmDialog
          title="Reset the sandbox operator?"
          confirmLabel="Reset"
          danger
          onCancel={() => setConfirmReset(false)}
          onConfirm={() => {
            setConfirmReset(false);
            void reset();
          }}
        >
          <p>
            Every balance and deposit of the sandbox is forgotten; users start again at {state?.startingBalance ?? 'the starting balance'}. Captured exchanges
            stay.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
