// Records the SQL (and arguments) a store method runs, so the benchmark can show the query plan of
// exactly what ExchangeStore.list/timeline build, without copying their query construction.
import type { Db } from '../../src-main/core/store/sqlite';

export interface SpiedCall {
  sql: string;
  args: unknown[];
}

/** Wraps db.prepare on this one connection; returns the calls log and an undo. */
export function spyOnSql(db: Db): { calls: SpiedCall[]; restore(): void } {
  const calls: SpiedCall[] = [];
  const original = db.prepare;
  const patched = function (this: Db, sql: string) {
    const stmt = original.call(this, sql);
    return new Proxy(stmt, {
      get(target, prop, receiver) {
        const value: unknown = Reflect.get(target, prop, receiver);
        if ((prop === 'all' || prop === 'get' || prop === 'iterate') && typeof value === 'function') {
          return (...args: unknown[]) => {
            calls.push({ sql, args });
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        if (typeof value === 'function') {
          // pluck(), raw() and friends return the statement itself: keep the proxy in the chain.
          return (...args: unknown[]) => {
            const out = (value as (...a: unknown[]) => unknown).apply(target, args);
            return out === target ? receiver : out;
          };
        }
        return value;
      },
    });
  };
  (db as unknown as { prepare: unknown }).prepare = patched;
  return {
    calls,
    restore: () => {
      delete (db as unknown as { prepare?: unknown }).prepare;
    },
  };
}

/** EXPLAIN QUERY PLAN of one recorded call, as indented lines. */
export function queryPlan(db: Db, call: SpiedCall): string[] {
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${call.sql}`).all(...call.args) as Array<{ id: number; parent: number; detail: string }>;
  const depth = new Map<number, number>([[0, -1]]);
  return rows.map((r) => {
    const d = (depth.get(r.parent) ?? -1) + 1;
    depth.set(r.id, d);
    return `${'  '.repeat(d)}${r.detail}`;
  });
}

/** The same statement with every read of `exchanges` barred from its indexes (the rowid stays usable). */
export function withoutIndexes(sql: string): string {
  // NOT INDEXED follows the alias when there is one (`FROM exchanges AS new NOT INDEXED`).
  return sql.replace(/\bFROM exchanges( AS \w+)?\b(?! NOT INDEXED)/g, (_, alias: string | undefined) => `FROM exchanges${alias ?? ''} NOT INDEXED`);
}
