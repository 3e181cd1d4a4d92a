// `wager-desk db migrate`, `db copy` and `db use`: a team's PostgreSQL beside the data directory's SQLite
// log. The database is named by --to/--from's URL, else --database, else WAGER_DESK_DATABASE_URL; its
// password is never printed (every message shows the URL with *** in its place).
import { InvalidArgumentError, type Command } from 'commander';
import { Presets, SingleBar } from 'cli-progress';
import { databaseUrlProblem, redactDatabaseUrl } from '../../core/desk/shell-kit';
import type { DatabaseChoice, DatabaseCopyProgress, DatabaseCopyReport, DatabaseMigration } from '../../shared/team-store';
import { DATABASE_ENV, must, withDesk } from '../context';
import { refusePasswordInArgument } from '../database-argument';
import { UsageError } from '../errors';
import { printJson } from '../io';

function rows(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new InvalidArgumentError('expected a whole number from 1 to 10000');
  return n;
}

/** The PostgreSQL URL: the option's own value, else --database, else the environment; checked. */
function databaseUrl(command: string, own: string | true | undefined, database: string | undefined): string {
  refusePasswordInArgument(command, typeof own === 'string' ? own : undefined);
  const url = (typeof own === 'string' ? own : undefined) ?? database ?? process.env[DATABASE_ENV];
  if (url === undefined || url === '') throw new UsageError(`${command}: name the PostgreSQL database (a URL, --database URL or ${DATABASE_ENV})`);
  const problem = databaseUrlProblem(url);
  if (problem) throw new UsageError(`${command}: ${redactDatabaseUrl(url)}: ${problem}`);
  return url;
}

function migrationLines(m: DatabaseMigration): string[] {
  const schema = m.applied.length === 0 ? `schema ${m.to} (up to date)` : `schema ${m.from} -> ${m.to} (applied ${m.applied.join(', ')})`;
  const search = m.trigramIndex.ready
    ? 'search index: trigram (pg_trgm)'
    : `search index: none, search scans the rows (pg_trgm: ${m.trigramIndex.reason.split('\n')[0]}); a role with CREATE on the database can add it by running db migrate again`;
  return [`database: ${m.database}`, schema, search];
}

function copySummary(r: DatabaseCopyReport): string {
  const width = Math.max(...r.tables.map((t) => t.table.length));
  const lines = [
    `${r.complete ? 'copied' : 'stopped after'} ${r.copied} row${r.copied === 1 ? '' : 's'} from ${r.source} to ${r.target}` +
      (r.alreadyThere > 0 ? ` (${r.alreadyThere} were there from an earlier run)` : ''),
    ...r.tables.map((t) => `  ${t.table.padEnd(width)}  ${t.copied}${t.alreadyThere > 0 ? ` (+${t.alreadyThere} already there)` : ''}`),
  ];
  if (!r.complete) lines.push('run the same command again to continue');
  return `${lines.join('\n')}\n`;
}

/** A bar on stderr when it is a terminal (cli-progress, as redeliver's); nothing otherwise. */
function progressBar(): { update(p: DatabaseCopyProgress): void; stop(): void } {
  if (!process.stderr.isTTY) return { update() {}, stop() {} };
  const bar = new SingleBar(
    { format: 'db copy [{bar}] {value}/{total} rows | {table} | {eta_formatted} left', stream: process.stderr, hideCursor: true },
    Presets.shades_classic,
  );
  let started = false;
  return {
    update(p) {
      if (!started) bar.start(p.total, p.copied, { table: p.table });
      else bar.update(p.copied, { table: p.table });
      started = true;
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

function choiceLine(c: DatabaseChoice): string {
  return c.database === null
    ? "exchange log: the data directory's own SQLite (no team database saved)"
    : `exchange log: PostgreSQL at ${c.database} (saved in ${c.file})`;
}

export function registerDb(program: Command): void {
  const db = program.command('db').description("a team's PostgreSQL: create its schema, copy the log into it or out of it, use it");
  db.command('use [url]')
    .description(
      'the team database this data directory uses from now on (the app and every command without --database or $' +
        DATABASE_ENV +
        '); checked first; without URL: say which',
    )
    .option('--sqlite', "forget it: back to the data directory's own SQLite log")
    .option('--from-env', `save the URL in $${DATABASE_ENV} (a password stays out of the command line, which every user can read in ps)`)
    .option('--json', 'machine-readable output')
    .action(async (url: string | undefined, _opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      if ([url !== undefined, opts.sqlite === true, opts.fromEnv === true].filter(Boolean).length > 1) {
        throw new UsageError('db use: give one of a URL, --from-env or --sqlite');
      }
      const target = opts.fromEnv ? databaseUrl('db use', undefined, undefined) : url === undefined ? undefined : databaseUrl('db use', url, undefined);
      await withDesk(
        opts,
        async (desk) => {
          const c = must(await (target === undefined && !opts.sqlite ? desk.savedDatabase() : desk.useDatabase(target ?? null)));
          if (opts.json) printJson(c);
          else process.stdout.write(`${choiceLine(c)}\n`);
        },
        true,
      );
    });
  db.command('migrate')
    .description('create or update the Wager Desk schema in a PostgreSQL database (safe to run again, or from two hosts at once)')
    .option('--database <url>', `postgres://user:password@host:5432/database (default: $${DATABASE_ENV})`)
    .option('--json', 'machine-readable output')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      const url = databaseUrl('db migrate', undefined, opts.database as string | undefined);
      await withDesk(
        opts,
        async (desk) => {
          const m = must(await desk.migrateDatabase(url));
          if (opts.json) printJson(m);
          else process.stdout.write(`${migrationLines(m).join('\n')}\n`);
        },
        true,
      );
    });
  db.command('copy')
    .description("copy the data directory's log into PostgreSQL (--to) or out of it (--from): whole, exact, resumable")
    .option('--to [url]', "copy the data directory's SQLite log into this PostgreSQL database (migrated first)")
    .option('--from [url]', "copy this PostgreSQL database's log into the data directory's SQLite log")
    .option('--database <url>', `the PostgreSQL database when --to/--from name none (default: $${DATABASE_ENV})`)
    .option('--batch-size <rows>', 'rows per batch, each committed on its own (default 200)', rows)
    .option('--json', 'machine-readable output')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      if ((opts.to === undefined) === (opts.from === undefined)) throw new UsageError('db copy: give one of --to or --from');
      const direction = opts.to !== undefined ? 'to' : 'from';
      const url = databaseUrl('db copy', (opts.to ?? opts.from) as string | true, opts.database as string | undefined);
      await withDesk(
        opts,
        async (desk) => {
          const bar = progressBar();
          let result;
          try {
            result = await desk.copyDatabase({ direction, url, ...(opts.batchSize !== undefined ? { batchRows: opts.batchSize as number } : {}) }, (p) =>
              bar.update(p),
            );
          } finally {
            bar.stop();
          }
          const report = must(result);
          if (opts.json) printJson(report);
          else {
            if (report.migration && report.migration.applied.length > 0) process.stdout.write(`${migrationLines(report.migration).join('\n')}\n`);
            process.stdout.write(copySummary(report));
          }
        },
        true,
      );
    });
}
