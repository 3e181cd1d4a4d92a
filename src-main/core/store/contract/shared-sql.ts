// Reads written once for both engines: SQL that SQLite and PostgreSQL both understand, with named
// parameters (@name). For the few queries whose shape a feature builds itself (a redelivery's filter),
// so that the feature does not carry one copy per engine. Rows come back as SQLite gives them: flags as
// 0/1, ids and counts as numbers.
export interface SharedSql {
  all<T>(sql: string, params?: Record<string, unknown>): Promise<T[]>;
}
