// A page of the list as ids alone: what an export's selection takes of it. Read as ids where the engine
// can (PostgreSQL's driver would otherwise parse every summary's columns on the proxy's thread, SQLite's
// reading thread send them all over), it is the same page as the list's, cursor and stop included.
import type { ExchangePage } from '../../../shared/model';

export interface IdPage {
  /** Newest first, as the list's items. */
  ids: number[];
  nextBeforeId: number | null;
  /** As the list's: the read budget ran out after this many seconds; `ids` holds what was found by then (on PostgreSQL, none). */
  stoppedAfterSeconds?: number;
}

/** The ids of a page of the list. */
export function idsOf(page: ExchangePage): IdPage {
  return {
    ids: page.items.map((x) => x.id),
    nextBeforeId: page.nextBeforeId,
    ...(page.stoppedAfterSeconds !== undefined ? { stoppedAfterSeconds: page.stoppedAfterSeconds } : {}),
  };
}
