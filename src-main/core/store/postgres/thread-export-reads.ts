// An export's rows read by the export thread itself (desk/export-thread-main.ts), on a connection of its
// own to the team's database: the proxy's thread neither parses them nor wakes the server for them. The
// statements are the desk's own detail read (exchange-reads.ts detailRows: the columns as they are, which
// costs the server 0.6x the CPU of making each row a JSON text) with the desk's reading settings and read
// budget. One connection a database, opened at the first read, closed after a minute idle and opened
// again after a failure, as the desk's reading pool does.
import type pg from 'pg';
import type { DetailRows } from '../rows/exchange-rows';
import type { ThreadRowSource } from '../rows/export-rows';
import { databaseFailure, isPostgresError, poolPostgres, READER } from './connect';
import { PgExchangeReads } from './exchange-reads';

/** How the server lists the export thread's connections, apart from the desk's own reading ones. */
export const EXPORT_THREAD_APPLICATION = 'wager-desk export';

export class ThreadExportReads {
  private readonly pools = new Map<string, Promise<pg.Pool>>();

  /**
   * The rows of `ids` from the database `source` names, as the desk's detailRows reads them there. A
   * connection found broken (the server restarted since the last export, say) is replaced and the read
   * made once more on the new one: a read changes nothing, and an idle connection's end is heard only by
   * the statement that meets it.
   */
  async exportRows(source: ThreadRowSource, ids: readonly number[]): Promise<DetailRows> {
    const { url, statementTimeoutMs } = source.postgres;
    try {
      return await this.readOnce(url, statementTimeoutMs, ids).catch((err: unknown) => {
        if (isPostgresError(err)) throw err;
        return this.readOnce(url, statementTimeoutMs, ids);
      });
    } catch (err) {
      throw databaseFailure(url, err);
    }
  }

  private async readOnce(url: string, statementTimeoutMs: number, ids: readonly number[]): Promise<DetailRows> {
    let client: pg.PoolClient | null = null;
    let broken: Error | undefined;
    try {
      client = await (await this.poolFor(url, statementTimeoutMs)).connect();
      const mine = client;
      return await new PgExchangeReads(async () => mine as pg.Client).detailRows(ids);
    } catch (err) {
      // A connection that failed other than by the server's answer (it went away) is not used again.
      if (!isPostgresError(err)) broken = err as Error;
      throw err;
    } finally {
      client?.release(broken);
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
