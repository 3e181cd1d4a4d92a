// The list's filters as both engines take them: each engine writes them as its own SQL (SQLite:
// sqlite/row-where.ts; PostgreSQL: postgres/exchange-reads.ts).
import type { ExchangeQuery } from '../../../shared/model';

/** `profile`: one profile's rows; null: unassigned rows only; absent: every row (the desk resolves the default). */
export type RowFilter = Omit<ExchangeQuery, 'beforeId' | 'limit' | 'profile'> & { ids?: readonly number[]; profile?: string | null };
