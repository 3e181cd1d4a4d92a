// Reads written once for both engines: SQL that SQLite and PostgreSQL both understand, with named
// parameters (@name). For the few queries whose shape a feature builds itself (a redelivery's filter),
// so that the feature does not carry one copy per engine. Rows come back as SQLite gives them: flags as
// 0/1, ids and counts as numbers.
import type { Db } from '../sqlite/open';

export interface SharedSql {
  all<T>(sql: string, params?: Record<string, unknown>): Promise<T[]>;
}

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
