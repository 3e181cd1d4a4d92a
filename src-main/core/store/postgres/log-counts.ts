// The log's counts (inbound, outbound) over PostgreSQL, kept cheap: a full count(*) reads every row,
// which at millions of rows is a second of the server's time, and the status bar asks on every commit.
// So the rows after the highest id counted are added to the last counts, and a full count runs again
// every FULL_MS: that catches what an addition cannot see (a row committed late below the highest id,
// another proxy's, and rows another process pruned). Calls meanwhile share the one query under way.
import type pg from 'pg';

/** How often the counts are taken whole again. */
const FULL_MS = 60_000;

export interface LogCounts {
  inbound: number;
  outbound: number;
}

export class PgLogCounts {
  private counted: (LogCounts & { maxId: number; at: number }) | null = null;
  private running: Promise<LogCounts> | null = null;

  constructor(private readonly client: () => Promise<pg.Client>) {}

  get(): Promise<LogCounts> {
    this.running ??= this.read().finally(() => (this.running = null));
    return this.running;
  }

  /** The counts are wrong now (rows deleted here): the next read counts whole. */
  forget(): void {
    this.counted = null;
  }

  private async read(): Promise<LogCounts> {
    const c = await this.client();
    const whole = this.counted === null || Date.now() - this.counted.at > FULL_MS;
    const after = whole ? 0 : this.counted!.maxId;
    const rows = (
      await c.query<{ direction: string; n: number; max: number }>(
        'SELECT direction, count(*)::float8 AS n, max(id)::float8 AS max FROM exchanges WHERE id > $1 GROUP BY direction',
        [after],
      )
    ).rows;
    const base = whole ? { inbound: 0, outbound: 0, maxId: 0, at: Date.now() } : this.counted!;
    const added = (d: string): number => rows.find((r) => r.direction === d)?.n ?? 0;
    this.counted = {
      inbound: base.inbound + added('inbound'),
      outbound: base.outbound + added('outbound'),
      maxId: Math.max(base.maxId, ...rows.map((r) => r.max)),
      at: base.at,
    };
    return { inbound: this.counted.inbound, outbound: this.counted.outbound };
  }
}
