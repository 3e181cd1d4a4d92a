// The shared reads (contract/shared-sql.ts) on SQLite: its named parameters are already @name. Each runs
// as a plan (read-plan.ts) through `read`: on a reading thread, off the proxy's.
import type { SharedSql } from '../contract/shared-sql';
import { readAll, type ReadPlan } from './read-plan';

export function sqliteSql(read: <T>(plan: ReadPlan<T>) => Promise<T>): SharedSql {
  return {
    all: <T>(sql: string, params: Record<string, unknown> = {}) => read(readAll<T>(sql, params)),
  };
}
