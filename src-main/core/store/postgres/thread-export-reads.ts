// An export's rows read by the export thread itself (desk/export-thread-main.ts), on a connection of its
// own to the team's database: the proxy's thread neither parses them nor wakes the server for them. The
// statements are the desk's own detail read (exchange-reads.ts detailRows) with the desk's reading
// settings and read budget. One connection a database, opened at the first read, closed after a minute
// idle and opened again after a failure, as the desk's reading pool does.
import type pg from 'pg';
import type { DetailRows } from '../rows/exchange-rows';
import type { PostgresRowSource } from '../rows/export-rows';
import { DeskFailure } from '../../result';
import { readStoppedMessage, stoppedSeconds } from '../rows/read-budget';
import { connectionEnded, databaseFailure, isCancelled, poolPostgres, READER } from './connect';
import { PgExchangeReads } from './exchange-reads';

/** How the server lists the export thread's connections, apart from the desk's own reading ones. */
export const EXPORT_THREAD_APPLICATION = 'wager-desk export';

export class ThreadExportReads {
  private readonly pools = new Map<string, Promise<pg.Pool>>();
  /** Connections that have read before: only such a one, found ended, is worth a second try. */
  private readonly used = new WeakSet<pg.PoolClient>();

  /**
   * The rows of `ids` from the database `source` names, as the desk's detailRows reads them there. A kept
   * connection found ended (the server restarted since the last export, say) is replaced and the read made
   * once more: a read changes nothing, and an idle connection's end is heard only by the statement that
   * meets it. A read past the budget fails as the desk's own reads do, saying so.
   */
  async exportRows(source: PostgresRowSource, ids: readonly number[]): Promise<DetailRows> {
    const { url, statementTimeoutMs } = source.postgres;
    try {
      return await this.readOnce(url, statementTimeoutMs, ids, true);
    } catch (err) {
      if (isCancelled(err)) throw new DeskFailure('io-error', readStoppedMessage(stoppedSeconds(statementTimeoutMs)));
      throw databaseFailure(url, err);
    }
  }

  private async readOnce(url: string, statementTimeoutMs: number, ids: readonly number[], mayRetry: boolean): Promise<DetailRows> {
    const client = await (await this.poolFor(url, statementTimeoutMs)).connect();
    const kept = this.used.has(client);
    try {
      const rows = await new PgExchangeReads(async () => client as pg.Client).detailRows(ids);
      this.used.add(client);
      client.release();
      return rows;
    } catch (err) {
      // An ended connection is not given out again; one refused statement leaves it usable.
      const ended = connectionEnded(err);
      client.release(ended ? (err as Error) : undefined);
      if (ended && kept && mayRetry) return this.readOnce(url, statementTimeoutMs, ids, false);
      throw err;
    }
  }

  private poolFor(url: string, statementTimeoutMs: number): Promise<pg.Pool> {
    const key = `${statementTimeoutMs} ${url}`;
    let pool = this.pools.get(key);
    if (!pool) {
      pool = poolPostgres(url, { ...READER, statementTimeoutMs, max: 1, applicationName: EXPORT_THREAD_APPLICATION });
      // A pool that could not be made (the driver missing) is not kept: the next read tries again.
      pool.catch(() => this.pools.delete(key));
      this.pools.set(key, pool);
    }
    return pool;
  }
}
