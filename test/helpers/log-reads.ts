// Reads of a desk's exchange log through its contract, as the desk reads them whichever engine holds it:
// for tests about what was recorded rather than about SQLite.
import type { ListQuery } from '../../src-main/core/store/contract/exchange-log';
import type { ExchangeDetail, ExchangeSummary } from '../../src-main/shared/model';
import { logOf } from './desk';

/** One exchange; throws when the log has none of that id, so the test fails where the row went missing. */
export async function exchangeOf(desk: object, id: number): Promise<ExchangeDetail> {
  const detail = await logOf(desk).get(id);
  if (!detail) throw new Error(`No exchange ${id} in the log.`);
  return detail;
}

/** A page of the list, newest first. */
export async function exchangesOf(desk: object, q: ListQuery = {}): Promise<ExchangeSummary[]> {
  return (await logOf(desk).list(q)).items;
}

/** The newest exchange the query finds, in full; throws when there is none. */
export async function newestExchangeOf(desk: object, q: ListQuery = {}): Promise<ExchangeDetail> {
  const [top] = await exchangesOf(desk, { ...q, limit: 1 });
  if (!top) throw new Error('The log has no such exchange.');
  return exchangeOf(desk, top.id);
}
