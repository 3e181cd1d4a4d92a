// The proxy's faults, in the database. The proxy asks for the fault of every callback, so the list is
// read again only when it may have changed: a change made through this store, or PRAGMA data_version
// moving (another process committed: `sandbox fault add` while `serve` runs). The version is the
// store's own, read at most once per turn of the event loop for everything that asks (routes, secrets,
// faults). With no fault set, a request costs one cached check.
import type { FaultAction, ProxyFault, ProxyFaultInput } from '../../../shared/model';
import { DeskFailure } from '../../result';
import type { Db } from './open';

interface FaultRow {
  id: number;
  path: 'pay' | 'results' | null;
  action: FaultAction['type'];
  status: number | null;
  body: string | null;
  delay_ms: number | null;
  max_count: number | null;
  ratio: number | null;
  matched: number;
  applied: number;
  created_at: string;
}

function actionOf(row: FaultRow): FaultAction {
  switch (row.action) {
    case 'status':
      return row.body !== null ? { type: 'status', status: row.status ?? 500, body: row.body } : { type: 'status', status: row.status ?? 500 };
    case 'delay':
      return { type: 'delay', ms: row.delay_ms ?? 0 };
    default:
      return { type: row.action };
  }
}

function faultOf(row: FaultRow): ProxyFault {
  return {
    id: row.id,
    path: row.path,
    action: actionOf(row),
    count: row.max_count,
    ratio: row.ratio,
    matched: row.matched,
    applied: row.applied,
    spent: row.max_count !== null && row.applied >= row.max_count,
    createdAt: row.created_at,
  };
}

/** Whether the `matched`-th matching request (1-based) falls in a ratio's share: evenly spread, and the same every run. */
export function inRatio(ratio: number, matched: number): boolean {
  return Math.floor(matched * ratio + 1e-9) > Math.floor((matched - 1) * ratio + 1e-9);
}

function check(input: ProxyFaultInput): void {
  if (typeof input !== 'object' || input === null || typeof input.action !== 'object' || input.action === null) {
    throw new DeskFailure('bad-input', 'A fault needs an action: a status, a delay, a timeout or a reset.');
  }
  const a = input.action;
  if (input.path !== undefined && input.path !== 'pay' && input.path !== 'results')
    throw new DeskFailure('bad-input', `A fault applies to pay or results, not "${String(input.path)}".`);
  if (a.type === 'status') {
    if (!Number.isInteger(a.status) || a.status < 100 || a.status > 599)
      throw new DeskFailure('bad-input', `A fault's status must be an HTTP status (100 to 599); got ${String(a.status)}.`);
    if (a.body !== undefined) {
      try {
        JSON.parse(a.body);
      } catch {
        throw new DeskFailure('bad-input', "A fault's body must be JSON.");
      }
    }
  } else if (a.type === 'delay') {
    if (!Number.isInteger(a.ms) || a.ms < 0) throw new DeskFailure('bad-input', `A delay is a whole number of milliseconds; got ${String(a.ms)}.`);
  } else if (a.type !== 'timeout' && a.type !== 'reset') {
    throw new DeskFailure('bad-input', `Unknown fault "${String((a as { type: unknown }).type)}": use status, delay, timeout or reset.`);
  }
  if (input.count !== undefined && input.ratio !== undefined) throw new DeskFailure('bad-input', 'A fault takes a count or a ratio, not both.');
  if (input.count !== undefined && (!Number.isInteger(input.count) || input.count < 1))
    throw new DeskFailure('bad-input', `A fault's count is a whole number of 1 or more; got ${String(input.count)}.`);
  if (input.ratio !== undefined && !(typeof input.ratio === 'number' && input.ratio > 0 && input.ratio <= 1)) {
    throw new DeskFailure('bad-input', `A fault's ratio is a share above 0 and up to 1; got ${String(input.ratio)}.`);
  }
}

export class FaultStore {
  private readonly listStmt;
  private readonly insertStmt;
  private readonly clearStmt;
  private readonly takeStmt;
  /** The live faults as the proxy last read them; null: read again. */
  private live: ProxyFault[] | null = null;
  private liveVersion = -1;

  constructor(
    db: Db,
    /** PRAGMA data_version of `db`'s connection (cached for the turn by the store). */
    private readonly dataVersion: () => number,
  ) {
    this.listStmt = db.prepare('SELECT * FROM proxy_faults ORDER BY id');
    this.insertStmt = db.prepare(
      'INSERT INTO proxy_faults (path, action, status, body, delay_ms, max_count, ratio, created_at) VALUES (@path, @action, @status, @body, @delay_ms, @max_count, @ratio, @created_at)',
    );
    this.clearStmt = db.prepare('DELETE FROM proxy_faults');
    // Counted in the database, so that a fault added for the next N requests is spent once, whoever applies it.
    this.takeStmt = db.prepare(
      'UPDATE proxy_faults SET matched = matched + 1, applied = applied + @hit WHERE id = @id AND (max_count IS NULL OR applied < max_count) RETURNING *',
    );
  }

  list(): ProxyFault[] {
    return (this.listStmt.all() as FaultRow[]).map(faultOf);
  }

  add(input: ProxyFaultInput): ProxyFault {
    check(input);
    const a = input.action;
    const info = this.insertStmt.run({
      path: input.path ?? null,
      action: a.type,
      status: a.type === 'status' ? a.status : null,
      body: a.type === 'status' ? (a.body ?? null) : null,
      delay_ms: a.type === 'delay' ? a.ms : null,
      max_count: input.count ?? null,
      ratio: input.ratio ?? null,
      created_at: new Date().toISOString(),
    });
    this.live = null;
    return this.list().find((f) => f.id === Number(info.lastInsertRowid))!;
  }

  /** Removes every fault; returns how many there were. */
  clear(): number {
    const n = this.clearStmt.run().changes;
    this.live = null;
    return n;
  }

  /**
   * The fault to apply to this callback, or null; counts the match (and the application) in the
   * database. The first live fault that matches the path decides; a ratio fault that lets this request
   * through still counts it. A fault that cannot be counted (the database busy) is not applied: a
   * fault never stops a capture.
   */
  take(kind: 'pay' | 'results'): ProxyFault | null {
    const live = this.current();
    if (live.length === 0) return null;
    const fault = live.find((f) => !f.spent && (f.path === null || f.path === kind));
    if (!fault) return null;
    const hit = fault.ratio === null || inRatio(fault.ratio, fault.matched + 1) ? 1 : 0;
    let row: FaultRow | undefined;
    try {
      row = this.takeStmt.get({ id: fault.id, hit }) as FaultRow | undefined;
    } catch {
      return null;
    }
    if (!row) {
      // Spent or cleared elsewhere since it was read.
      this.live = null;
      return null;
    }
    const updated = faultOf(row);
    this.live = live.map((f) => (f.id === updated.id ? updated : f));
    return hit === 1 ? updated : null;
  }

  /** The live faults, read again only when they may have changed. */
  private current(): ProxyFault[] {
    const version = this.dataVersion();
    if (this.live === null || version !== this.liveVersion) {
      this.live = this.list().filter((f) => !f.spent);
      this.liveVersion = version;
    }
    return this.live;
  }
}
