// Ids a group's statement drew for the groups after it, so that a busy proxy's group needs no round
// trip of its own to draw ids before its statement (the writes must know their rows' ids as they run,
// before anything is sent). An id drawn is a gap in the log until its row commits: followers (tail,
// exchange-reads.ts) look for a gap for 30 s, the text indexer (text-index.ts) for 10 minutes. So spare
// ids are used only while young (SPARE_MS, plus a statement's 10 s at most, stays well inside both);
// older ones are dropped and stay gaps for good, as the ids of a group that failed do.

/** How long drawn ids are handed out. */
export const SPARE_MS = 2_000;
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

  /** How many ids to draw ahead after a group that drew `used`: as many, a busy proxy's next group being alike. */
  static ahead(used: number): number {
    return Math.min(used, MAX_DRAW_AHEAD);
  }
}
