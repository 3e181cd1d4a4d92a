// The log's rows by direction, kept current without reading the log on the proxy's thread. Counting a
// million rows reads a whole index (50 ms), so a count reads only the rows past the last one it counted
// (plan(), run on a reading thread); between two counts, the rows this connection inserts are added as
// they are written (written()), so that known() is exact for this process's own rows at no SQL at all:
// each commit's exchange events carry it. Rows deleted elsewhere (`wager-desk prune` in another process)
// change the desk connection's data_version, and anything deleted on that connection must call
// recount(): then all are counted again at the next count.
import type { Direction } from '../../../shared/model';
import { readAll, readValue, type ReadPlan } from './read-plan';

export type LogCounts = { inbound: number; outbound: number };

const MAX_ID_SQL = 'SELECT max(id) FROM exchanges';
// `+direction`: grouping along the direction index would read all of it (tens of ms at 300,000 rows,
// on every commit of a lone send); the rowid range reads only the rows written since. Bounded above by
// the max id read just before: the two statements see the log at two moments, and a row committed
// between them would be counted here and again as a row written past maxId.
const COUNT_SINCE_SQL = `SELECT direction, count(*) AS n FROM exchanges WHERE id > ? AND id <= ? GROUP BY +direction`;
/**
 * Rows written and not counted yet, kept one by one at most: a headless `serve` nobody asks for counts
 * would otherwise keep one per capture. Past it, known() is short until the next count.
 */
const TRACKED_MAX = 10_000;

export class RunningCounts {
  private counted: { maxId: number; inbound: number; outbound: number } | null = null;
  private countedVersion = -1;
  /** Moves on each recount(): a count that began before one does not keep what it found. */
  private generation = 0;
  /** Rows this connection wrote past `counted.maxId`, in id order (a group commit rolled back leaves a few: the next count drops them). */
  private written: Array<{ id: number; direction: Direction }> = [];
  /** The highest id written and not kept in `written` (0: none): until a count reaches it, known() is short. */
  private untrackedUpTo = 0;

  /** The counts, brought up to date; `version`: the desk connection's data_version now. */
  *plan(version: number): ReadPlan<LogCounts> {
    const generation = this.generation;
    const maxId = (yield* readValue<number | null>(MAX_ID_SQL)) ?? 0;
    let counted = this.counted;
    if (counted === null || maxId < counted.maxId || version !== this.countedVersion) counted = { maxId: 0, inbound: 0, outbound: 0 };
    if (maxId !== counted.maxId) {
      const next = { ...counted, maxId };
      for (const r of yield* readAll<{ direction: Direction; n: number }>(COUNT_SINCE_SQL, [counted.maxId, maxId])) next[r.direction] += r.n;
      counted = next;
    }
    if (generation === this.generation) {
      this.counted = counted;
      this.countedVersion = version;
      this.written = this.written.filter((w) => w.id > maxId);
      if (this.untrackedUpTo <= maxId) this.untrackedUpTo = 0;
    }
    return { inbound: counted.inbound, outbound: counted.outbound };
  }

  /** A row this connection inserted: counted in known() until a count reads it. */
  wrote(id: number, direction: Direction): void {
    if (this.written.length < TRACKED_MAX) this.written.push({ id, direction });
    else this.untrackedUpTo = Math.max(this.untrackedUpTo, id);
  }

  /** The counts last read and the rows written since, without reading (zeros before the first count). */
  known(): LogCounts {
    const known = { inbound: this.counted?.inbound ?? 0, outbound: this.counted?.outbound ?? 0 };
    const after = this.counted?.maxId ?? 0;
    for (const w of this.written) if (w.id > after) known[w.direction] += 1;
    return known;
  }

  /** Whether known() may be off: never counted, rows written past what it keeps, or rows written it has not counted yet. */
  stale(): boolean {
    return this.counted === null || this.untrackedUpTo > 0 || this.written.length > TRACKED_MAX / 2;
  }

  recount(): void {
    this.counted = null;
    this.written = [];
    this.untrackedUpTo = 0;
    this.generation++;
  }
}
