// The shared reads (contract/shared-sql.ts) on SQLite: its named parameters are already @name.
import type { SharedSql } from '../contract/shared-sql';
import type { Db } from './open';

export function sqliteSql(db: Db): SharedSql {
  const prepared = new Map<string, ReturnType<Db['prepare']>>();
  return {
    all: async <T>(sql: string, params: Record<string, unknown> = {}) => {
      let stmt = prepared.get(sql);
      if (!stmt) prepared.set(sql, (stmt = db.prepare(sql)));
      return stmt.all(params) as T[];
    },
  };
}
