import { useState, type FormEvent } from 'react';
import type { FaultAction, ProxyFault, ProxyFaultInput } from '../../../src-main/shared/model';
import { useDesk } from '../../store';

type Kind = FaultAction['type'];

function describe(a: FaultAction): string {
  if (a.type === 'status') return `answer ${a.status}${a.body !== undefined ? ` ${a.body}` : ''}`;
  if (a.type === 'delay') return `delay ${a.ms} ms`;
  return a.type === 'timeout' ? 'no answer (timeout)' : 'connection reset';
}

function scopeOf(f: ProxyFault): string {
  if (f.count !== null) return `next ${f.count}`;
  if (f.ratio !== null) return `${Math.round(f.ratio * 1000) / 10}% of them`;
  return 'every one';
}

/** Reads the form into a fault, or says what is wrong. */
function inputOf(kind: Kind, value: string, body: string, path: string, limit: string, limitKind: 'count' | 'ratio' | 'all'): ProxyFaultInput | string {
  let action: FaultAction;
  if (kind === 'status') {
    const status = Number(value);
    if (!Number.isInteger(status) || status < 100 || status > 599) return 'The status is an HTTP status, 100 to 599.';
    if (body.trim() !== '') {
      try {
        JSON.parse(body);
      } catch {
        return 'The body must be JSON.';
      }
    }
    action = body.trim() !== '' ? { type: 'status', status, body } : { type: 'status', status };
  } else if (kind === 'delay') {
    const ms = Number(value);
    if (value.trim() === '' || !Number.isInteger(ms) || ms < 0) return 'The delay is a whole number of milliseconds.';
    action = { type: 'delay', ms };
  } else action = { type: kind };
  const input: ProxyFaultInput = { action, ...(path === 'pay' || path === 'results' ? { path } : {}) };
  if (limitKind === 'count') {
    const count = Number(limit);
    if (!Number.isInteger(count) || count < 1) return 'The count is a whole number of 1 or more.';
    input.count = count;
  } else if (limitKind === 'ratio') {
    const ratio = Number(limit) / 100;
    if (!(ratio > 0 && ratio <= 1)) return 'The share is a percentage above 0, up to 100.';
    input.ratio = ratio;
  }
  return input;
}

/** Faults the proxy applies to callbacks, in sandbox and in forward mode: add, watch their counts, clear. */
export function FaultsPanel() {
  const faults = useDesk((s) => s.faults);
  const addFault = useDesk((s) => s.addFault);
  const clearFaults = useDesk((s) => s.clearFaults);
  const [kind, setKind] = useState<Kind>('status');
  const [value, setValue] = useState('503');
  const [body, setBody] = useState('');
  const [path, setPath] = useState('');
  const [limitKind, setLimitKind] = useState<'count' | 'ratio' | 'all'>('count');
  const [limit, setLimit] = useState('1');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const input = inputOf(kind, value, body, path, limit, limitKind);
    if (typeof input === 'string') return setProblem(input);
    setProblem(null);
    await addFault(input);
  };

  return (
    <section className="card faults-card" data-testid="faults-panel">
      <h3 className="card-title">Faults</h3>
      <p className="muted small">
        The proxy applies a fault to the callbacks it matches, here and in forward mode: an error status, a delay, no answer, or a reset. The capture is
        recorded first, and its row names the fault. <code>wager-desk sandbox fault add</code> does the same from a terminal.
      </p>
      <form className="inline-form wrap" onSubmit={(e) => void submit(e)} data-testid="fault-form">
        <select className="input" value={path} onChange={(e) => setPath(e.target.value)} aria-label="Which callbacks" data-testid="fault-path">
          <option value="">pay and results</option>
          <option value="pay">pay</option>
          <option value="results">results</option>
        </select>
        <select className="input" value={kind} onChange={(e) => setKind(e.target.value as Kind)} aria-label="Fault" data-testid="fault-kind">
          <option value="status">answer a status</option>
          <option value="delay">delay (ms)</option>
          <option value="timeout">no answer (timeout)</option>
          <option value="reset">reset the connection</option>
        </select>
        {(kind === 'status' || kind === 'delay') && (
          <input
            className="input amount-input"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            aria-label={kind === 'status' ? 'Status' : 'Delay in ms'}
            data-testid="fault-value"
          />
        )}
        {kind === 'status' && (
          <input
            className="input"
            placeholder="body (JSON, optional)"
            value={body}
            onChange={(e) => setBody(e.target.value)}
            aria-label="Body"
            data-testid="fault-body"
          />
        )}
        <select
          className="input"
          value={limitKind}
          onChange={(e) => setLimitKind(e.target.value as 'count' | 'ratio' | 'all')}
          aria-label="How often"
          data-testid="fault-limit-kind"
        >
          <option value="count">the next N</option>
          <option value="ratio">a share (%)</option>
          <option value="all">every one</option>
        </select>
        {limitKind !== 'all' && (
          <input
            className="input amount-input"
            value={limit}
            onChange={(e) => setLimit(e.target.value)}
            aria-label={limitKind === 'count' ? 'N' : 'Percent'}
            data-testid="fault-limit"
          />
        )}
        <button type="submit" className="btn btn-small btn-primary" data-testid="fault-add">
          Add fault
        </button>
        {problem && <span className="text-error small">{problem}</span>}
      </form>
      {faults.length === 0 ? (
        <p className="muted" data-testid="faults-none">
          No fault: callbacks are answered normally.
        </p>
      ) : (
        <>
          <table className="table" data-testid="faults">
            <thead>
              <tr>
                <th>#</th>
                <th>Callbacks</th>
                <th>Fault</th>
                <th>Applies to</th>
                <th className="num">Applied</th>
              </tr>
            </thead>
            <tbody>
              {faults.map((f) => (
                <tr key={f.id} data-testid="fault" data-id={f.id} data-spent={f.spent} className={f.spent ? 'muted' : undefined}>
                  <td>{f.id}</td>
                  <td>{f.path ?? 'pay and results'}</td>
                  <td>{describe(f.action)}</td>
                  <td>{scopeOf(f)}</td>
                  <td className="num" data-testid="fault-applied">
                    {f.applied} of {f.matched}
                    {f.spent ? ' (spent)' : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => void clearFaults()} data-testid="faults-clear">
            Clear faults
          </button>
        </>
      )}
    </section>
  );
}
