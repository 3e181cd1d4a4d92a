// A team's exchange log in PostgreSQL, as one desk uses it: writers for the proxy's listeners (each its
// own connection, so that its group commit never waits behind a read) and a pool of connections for the
// desk's reads (and its small writes), each caller with a connection to itself while it runs, opened as
// needed and again after the database went away. Every statement there carries a statement_timeout of
// the read budget: a read past it is cancelled by the server, and a search answers as SQLite's does
// (stoppedAfterSeconds). The desk's long or transactional changes (a prune, a reset of the books, a
// change of the profiles) take a connection of their own, so that reads neither wait for them nor run
// inside their transactions.
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { ExchangeSummary } from '../../../shared/model';
import type { CaptureRows } from '../contract/capture-writer';
import type { ExchangeLog, ExchangeReader, LogCounts } from '../contract/exchange-log';
import { pgDeleteExchanges } from './exchange-delete';
import { prunePostgres } from './prune';
import { readBooks, resetBooks, setBookBalance } from './sandbox-books';
import { pgRejudge, pgSignedPage } from './signed-rows';
import { pgCheckReports } from './check-reports';
import { pgSavedRequests } from './saved-requests';
import { pgRequestOf } from './request-of';
import { pgSharedSql } from './shared-sql';
import { connectPostgres, databaseFailure, isCancelled, isPostgresError, poolPostgres, READER, type ConnectOptions } from './connect';
import { PgCaptureWriter, type PgSandbox } from './capture-writer';
import { redactDatabaseUrl } from '../database-url';
import { MAX_LIMIT, PgExchangeReads } from './exchange-reads';
import { listenToLog, type LogListener } from './log-listener';
import { isMissingSchemaObject, requireCurrentSchema } from './migrate';
import { PgTextIndexer } from './text-indexer';
import { readTeamProfiles, writeTeamProfiles, type ProfileChange } from './team-profiles';
import type { Row } from '../copy/copy-side';
import { DeskFailure } from '../../result';
import { READ_BUDGET_MS, readStoppedMessage, stoppedSeconds } from '../rows/read-budget';

/**
 * The proxy's connections: quick to give up, so that a database away turns into 503s, not hung callbacks.
 * They commit as the server says (synchronous_commit): a team that chose commits without the flush for the
 * proxies' role has them (docs/TEAM.md), and nothing here sets it otherwise.
 */
export const WRITER: ConnectOptions = { numbers: true, connectTimeoutMs: 5_000, queryTimeoutMs: 10_000, keptPlans: true };
/** The desk's reads at once: a long search leaves connections for the list, the counts and the follow beside it. */
const READING_CONNECTIONS = 4;

/** A read the server cancelled at its statement_timeout, the read budget. */
class ReadBudgetSpent extends DeskFailure {
  constructor(readonly afterSeconds: number) {
    super('io-error', readStoppedMessage(afterSeconds));
  }
}

export interface TeamLogOptions {
  /** How long one statement of the desk's reads may run (default READ_BUDGET_MS). */
  readBudgetMs?: number;
}

export class TeamLog {
  private readonly reads: PgExchangeReads;
  private readingPool: Promise<pg.Pool> | null = null;
  /** The reading connection the call under way checked out (run()): the reads' statements go there. */
  private readonly checkedOut = new AsyncLocalStorage<pg.PoolClient>();
  private readonly budgetMs: number;
  private readonly writers = new Set<PgCaptureWriter>();
  /** The desk's own writes (sends, imports), opened on the first. */
  private deskWriter: PgCaptureWriter | null = null;
  private readonly listeners = new Set<LogListener>();
  private closed = false;
  /** The text index kept up to date while this desk's proxy writes (text-indexer.ts). */
  private indexer: PgTextIndexer | null = null;

  constructor(
    readonly url: string,
    options: TeamLogOptions = {},
  ) {
    this.budgetMs = options.readBudgetMs ?? READ_BUDGET_MS;
    this.reads = new PgExchangeReads(() => this.readConnection());
  }

  /** The URL as it may be shown: without its password. */
  get label(): string {
    return `PostgreSQL at ${redactDatabaseUrl(this.url)}`;
  }

  /** Refuses a database that cannot be reached or whose schema is not this version's, saying what to do. */
  checkSchema(): Promise<void> {
    return this.run((c) => requireCurrentSchema(c, redactDatabaseUrl(this.url)));
  }

  /** A writer for one listener of the proxy (which keeps the text index up to date); closed with it. */
  openWriter(sandbox?: PgSandbox): PgCaptureWriter {
    const writer = this.newWriter(sandbox);
    // Only a proxy writes streams of rows; a command's few sends leave the indexing to the proxies.
    this.indexer ??= PgTextIndexer.start(() => connectPostgres(this.url, READER));
    return writer;
  }

  private newWriter(sandbox?: PgSandbox): PgCaptureWriter {
    if (this.closed) throw new Error('the desk is closing');
    const writer: PgCaptureWriter = new PgCaptureWriter({
      connect: () => connectPostgres(this.url, WRITER),
      closed: () => this.writers.delete(writer),
      ...(sandbox ? { sandbox } : {}),
    });
    this.writers.add(writer);
    return writer;
  }

  /**
   * Hands on every row any process commits from now on, once complete (LISTEN/NOTIFY, with a poll
   * behind it). Its own connection for the LISTEN, and its own cursor over the reading one.
   */
  listen(onRows: (rows: ExchangeSummary[]) => Promise<void> | void): LogListener {
    // Closed: nothing to hear, and no connection opened that nothing would end.
    if (this.closed) return { stop: () => Promise.resolve() };
    const reads = new PgExchangeReads(() => this.readConnection());
    const listener = listenToLog(
      () => connectPostgres(this.url, READER),
      { follow: (filter, afterId, pending) => this.run(() => reads.follow(filter, afterId, pending)) },
      onRows,
    );
    this.listeners.add(listener);
    return {
      stop: () => listener.stop().finally(() => this.listeners.delete(listener)),
    };
  }

  /** Every profile the team keeps, as rows of the desk's copy (profile-copy.ts). */
  readProfiles(): Promise<Row[]> {
    return this.run((c) => readTeamProfiles(c));
  }

  /**
   * Writes a change of the profiles. On a connection of its own: on a reading connection its transaction
   * would hold one of the pool's connections throughout, under the read budget's statement_timeout.
   */
  writeProfiles(changes: readonly ProfileChange[]): Promise<void> {
    return this.alone((c) => writeTeamProfiles(c, changes));
  }

  /** Runs `fn` on a connection of its own, ended after it; a failure names the database (never its password). */
  private async alone<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
    let client: pg.Client | null = null;
    try {
      if (this.closed) throw new Error('the desk is closing');
      client = await connectPostgres(this.url, READER);
      return await fn(client);
    } catch (err) {
      throw await this.failure(err);
    } finally {
      await client?.end().catch(() => undefined);
    }
  }

  /** The log's counts by direction, read in their turn. */
  counts(): Promise<LogCounts> {
    return this.run(() => this.reads.counts());
  }

  /** The list's, a detail's and a timeline's reads, each failure naming the database (never its password). */
  reader(): ExchangeReader {
    return {
      list: (q) =>
        this.stoppedSearch(
          this.run(() => this.reads.list(q)),
          (afterSeconds) => ({ items: [], nextBeforeId: null, stoppedAfterSeconds: afterSeconds }),
        ),
      listIds: (q) =>
        this.stoppedSearch(
          this.run(() => this.reads.listIds(q)),
          (afterSeconds) => ({ ids: [], nextBeforeId: null, stoppedAfterSeconds: afterSeconds }),
        ),
      get: (id) => this.run(() => this.reads.get(id)),
      detailRows: (ids) => this.run(() => this.reads.detailRows(ids)),
      // The export thread reads the rows on its own connection (thread-export-reads.ts); here only where it cannot start.
      exportRows: async (ids) => ({
        readThere: { postgres: { url: this.url, statementTimeoutMs: this.budgetMs } },
        readHere: () => this.run(() => this.reads.detailRows(ids)),
      }),
      timeline: (depositId, profile) => this.run(() => this.reads.timeline(depositId, profile)),
    };
  }

  /**
   * The log as the desk reads and writes it; the desk's writes commit as the proxy's do, and notify the
   * same way. `startingBalance`: what a user the books have not seen starts with (the desk's setting).
   * `onRejudged`: told of the rows a re-verification judged again, read back after each page (LISTEN/NOTIFY
   * carries new rows only), as SQLite's store announces each row it changes.
   */
  log(startingBalance: () => number, onRejudged?: (rows: ExchangeSummary[]) => Promise<void> | void): ExchangeLog {
    const run = <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => this.run(fn);
    let known: LogCounts = { inbound: 0, outbound: 0 };
    return {
      ...this.reader(),
      label: this.label,
      requestOf: (id) => run((c) => pgRequestOf(c, id)),
      reports: pgCheckReports(run),
      saved: pgSavedRequests(run),
      sql: pgSharedSql(run),
      books: {
        state: (book) => run((c) => readBooks(c, book, startingBalance())),
        setBalance: (book, userId, balance) => run((c) => setBookBalance(c, book, userId, balance)),
        reset: (book) => this.alone((c) => resetBooks(c, book)),
      },
      write: (write, newRows = 1) => this.deskWrite(write, newRows),
      ready: () => this.checkSchema(),
      openCaptureWriter: (operator) => this.openWriter({ operator, startingBalance }),
      follow: (filter, afterId, pending) => run(() => this.reads.follow(filter, afterId, pending)),
      counts: async () => (known = await run(() => this.reads.counts())),
      knownCounts: () => known,
      signedPage: (filter, afterId, limit) => run((c) => pgSignedPage(c, filter, afterId, limit)),
      rejudge: async (judged, reports) => {
        await run((c) => pgRejudge(c, judged, reports));
        if (!onRejudged || reports.length === 0) return;
        const ids = reports.map((r) => r.id);
        const rows: ExchangeSummary[] = [];
        // Read back in pages of the list's size, whatever the re-verification's page.
        for (let from = 0; from < ids.length; from += MAX_LIMIT) {
          const chunk = ids.slice(from, from + MAX_LIMIT);
          const page = await run(() => this.reads.list({ ids: chunk, direction: 'all', limit: chunk.length }));
          rows.push(...page.items.reverse());
        }
        await onRejudged(rows);
      },
      prune: async (options) => {
        const report = await this.alone((c) => prunePostgres(c, options));
        this.reads.forgetCounts();
        return report;
      },
      delete: async (target, dryRun) => {
        const outcome = await run((c) => pgDeleteExchanges(c, target, dryRun));
        if (!dryRun && outcome.deleted > 0) this.reads.forgetCounts();
        return outcome;
      },
    };
  }

  private deskWrite<T>(write: (rows: CaptureRows) => T, newRows: number): Promise<T> {
    if (this.closed) return Promise.reject(databaseFailure(this.url, new Error('the desk is closing')));
    // Closed with the proxy's writers (close()).
    const writer = (this.deskWriter ??= this.newWriter());
    return new Promise<T>((resolve, reject) =>
      writer.write(
        (tx) => write(tx.rows),
        (err, value) => (err === null ? resolve(value as T) : void this.failure(err).then(reject)),
        newRows,
      ),
    );
  }

  /**
   * Runs reads on a reading connection of their own (checked out of the pool while they run); a failure
   * names the database (never its password), and a statement past the read budget says it stopped.
   */
  async run<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
    let client: pg.PoolClient | null = null;
    let broken: Error | undefined;
    try {
      if (this.closed) throw new Error('the desk is closing');
      client = await (
        await (this.readingPool ??= poolPostgres(this.url, { ...READER, statementTimeoutMs: this.budgetMs, max: READING_CONNECTIONS }))
      ).connect();
      const mine = client;
      return await this.checkedOut.run(mine, () => fn(mine));
    } catch (err) {
      // A connection that failed other than by the server's answer or the desk's own refusal (it went
      // away, a client-side timeout) is not given out again.
      if (!isPostgresError(err) && !(err instanceof DeskFailure)) broken = err as Error;
      if (isCancelled(err)) throw new ReadBudgetSpent(stoppedSeconds(this.budgetMs));
      throw await this.failure(err);
    } finally {
      client?.release(broken);
    }
  }

  /** A list stopped by the read budget answers as SQLite's does: no rows, and after how long it stopped (`stopped`'s page). */
  private async stoppedSearch<P>(page: Promise<P>, stopped: (afterSeconds: number) => P): Promise<P> {
    try {
      return await page;
    } catch (err) {
      if (err instanceof ReadBudgetSpent) return stopped(err.afterSeconds);
      throw err;
    }
  }

  /**
   * A failure as the user reads it. A statement naming a table or column the database lacks means a
   * database not migrated to this version (a team's first command usually runs before `db migrate`):
   * said as the step to take, checked on a connection of its own, never as the raw SQL error.
   */
  private async failure(err: unknown): Promise<DeskFailure> {
    if (isMissingSchemaObject(err) && !this.closed) {
      const client = await connectPostgres(this.url, READER).catch(() => null);
      try {
        if (client) await requireCurrentSchema(client, redactDatabaseUrl(this.url));
      } catch (schema) {
        if (schema instanceof DeskFailure) return schema;
      } finally {
        await client?.end().catch(() => undefined);
      }
    }
    return databaseFailure(this.url, err);
  }

  /** The reading connection of the call under way (run()). */
  private readConnection(): Promise<pg.Client> {
    const client = this.checkedOut.getStore();
    return client ? Promise.resolve(client) : Promise.reject(new Error('A read of the team log ran outside its turn on a reading connection.'));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.deskWriter = null;
    for (const w of [...this.writers]) await w.close();
    for (const l of [...this.listeners]) await l.stop();
    await this.indexer?.stop();
    this.indexer = null;
    const reading = this.readingPool;
    this.readingPool = null;
    // Not waited for: a connection still opening to a database that does not answer would hold the
    // close until its timeout. The pool ends each as soon as it is released or opens.
    if (reading) void reading.then((pool) => pool.end()).catch(() => undefined);
  }
}
