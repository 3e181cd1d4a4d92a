// The exchange log as the desk's reads see it, whatever the engine: a page of the list, one exchange, a
// deposit's timeline. SQLite answers at once (its reads are synchronous); PostgreSQL over the network.
// Exports and the list go through this, so that they read the team's log when the desk has one.
import type { ExchangeDetail, ExchangePage, Timeline } from '../../shared/model';
import type { ExchangeStore } from './exchanges';
import type { RowFilter } from './row-filter';

export type ListQuery = RowFilter & { beforeId?: number; limit?: number };

export interface ExchangeReader {
  list(q: ListQuery): Promise<ExchangePage>;
  get(id: number): Promise<ExchangeDetail | null>;
  /** `profile`: one profile's deposit, null: unassigned rows, absent: every row naming it. */
  timeline(depositId: string, profile?: string | null): Promise<Timeline>;
}

export function sqliteReader(exchanges: ExchangeStore): ExchangeReader {
  return {
    list: async (q) => exchanges.list(q),
    get: async (id) => exchanges.get(id),
    timeline: async (depositId, profile) => exchanges.timeline(depositId, profile),
  };
}
