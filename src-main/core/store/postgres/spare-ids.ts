// Ids a group's statement drew for the groups after it, so that a busy proxy's group needs no round
// trip of its own to draw ids before its statement (the writes must know their rows' ids as they run,
// before anything is sent). Only a busy writer draws ahead: an id drawn ahead is a gap in the log until
// its row commits, and the row it becomes sorts below rows other writers committed meanwhile (a desk's
// own sends beside its proxy, another proxy). So spare ids are used only while young (SPARE_MS, the
// time of many groups under load); older ones are dropped and stay gaps for good, as the ids of a group
// that failed do. Followers (tail, exchange-reads.ts) look for a gap for 30 s, the text indexer
// (text-index.ts) for 10 minutes: far longer than SPARE_MS and a statement's 10 s at most.

/** How long drawn ids are handed out. */
export const SPARE_MS = 1_000;
/** The most ids a statement draws ahead (an import's thousands are drawn when they come). */
export const MAX_DRAW_AHEAD = 256;

export class SpareIds {
  /** Oldest first: each statement's ids, in the order the sequence gave them. */
  private drawn: Array<{ ids: number[]; at: number }> = [];

  add(ids: readonly number[], at = Date.now()): void {
    if (ids.length > 0) this.drawn.push({ ids: [...ids], at });
  }

  /** Up to `n` young ids, oldest first; old ones are dropped on the way. */
  take(n: number, now = Date.now()): number[] {
    this.drawn = this.drawn.filter((d) => now - d.at <= SPARE_MS);
    const out: number[] = [];
    while (out.length < n && this.drawn.length > 0) {
      const first = this.drawn[0]!;
      out.push(...first.ids.splice(0, n - out.length));
      if (first.ids.length === 0) this.drawn.shift();
    }
    return out;
  }

  /**
   * How many ids to draw ahead after a group that used `used`: as many, a busy writer's next group being
   * alike; none when idle (`busy`: another group in flight or writes waiting; a group of several rows
   * says so too), where the next group may be far off and a capture's id should follow the last one's.
   */
  static ahead(used: number, busy: boolean): number {
    return busy || used > 1 ? Math.min(used, MAX_DRAW_AHEAD) : 0;
  }
}
