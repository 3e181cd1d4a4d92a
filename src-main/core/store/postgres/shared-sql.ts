// The shared reads (contract/shared-sql.ts) on PostgreSQL: named parameters numbered, flags read as 0/1.
import type pg from 'pg';
import type { SharedSql } from '../contract/shared-sql';
import { pgText } from './pg-text';

/** The statement with each @name turned into $n (a name used twice is one parameter), and the values in order. */
export function numberedParameters(sql: string, params: Record<string, unknown>): { text: string; values: unknown[] } {
  const order: string[] = [];
  const text = sql.replace(/@([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`The query names @${name}, which is not given.`);
    let at = order.indexOf(name);
    if (at === -1) at = order.push(name) - 1;
    return `$${at + 1}`;
  });
  return { text, values: order.map((name) => pgText(params[name])) };
}

const asSqliteValue = (v: unknown): unknown => (typeof v === 'boolean' ? (v ? 1 : 0) : v);

export function pgSharedSql(run: <T>(fn: (client: pg.Client) => Promise<T>) => Promise<T>): SharedSql {
  return {
    all: <T>(sql: string, params: Record<string, unknown> = {}) =>
      run(async (c) => {
        const { text, values } = numberedParameters(sql, params);
        const rows = (await c.query<Record<string, unknown>>(text, values)).rows;
        return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, asSqliteValue(v)]))) as T[];
      }),
  };
}
