// A deletion as a person asks for it (the UI's "delete the selection" or "delete what the filter shows"),
// checked the same way before either engine deletes it.
import type { ExchangeDeletion, ExchangeQuery } from '../../../shared/model';
import { DeskFailure } from '../../result';

/** The most ids one delete takes (the UI's selection is a page or a few). */
const MAX_IDS = 100_000;

function idsOf(target: ExchangeDeletion): number[] | null {
  if (!('ids' in target)) return null;
  const ids = target.ids;
  if (!Array.isArray(ids) || !ids.every((id) => Number.isInteger(id) && id > 0))
    throw new DeskFailure('bad-input', 'The exchanges to delete are given by their ids (whole numbers).');
  if (ids.length > MAX_IDS) throw new DeskFailure('bad-input', `At most ${MAX_IDS} ids at once; delete by filter instead.`);
  return ids;
}

function filterOf(target: ExchangeDeletion): ExchangeQuery {
  return (target as { filter?: ExchangeQuery }).filter ?? {};
}

export interface DeleteOutcome {
  /** Rows deleted, or with dryRun the rows that would be. */
  deleted: number;
  /** The highest id among them (null: none): a confirmed delete passes it back as upToId. */
  lastId: number | null;
}

/** A deletion checked: the ids, or the filter and the highest id it may reach. Both engines delete this. */
export interface CheckedDeletion {
  ids: number[] | null;
  filter: ExchangeQuery;
  upToId: number | undefined;
}

export function checkDeletion(target: ExchangeDeletion): CheckedDeletion {
  if (typeof target !== 'object' || target === null || (!('ids' in target) && !('filter' in target))) {
    throw new DeskFailure('bad-input', 'Say which exchanges to delete: { ids } or { filter }.');
  }
  // Rows recorded after the user saw the count (the proxy is live) are not deleted with the ones counted.
  const upToId = 'filter' in target ? target.upToId : undefined;
  if (upToId !== undefined && (!Number.isInteger(upToId) || upToId < 0))
    throw new DeskFailure('bad-input', 'upToId is the highest id to delete (a whole number).');
  return { ids: idsOf(target), filter: filterOf(target), upToId };
}
