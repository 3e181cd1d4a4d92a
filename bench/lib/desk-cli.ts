// Runs the real desk the way a user does: `wager-desk serve` in a child process. The built CLI
// (out/main/cli.js, else the same build `npm test` makes in out-test/) is preferred; when neither is
// newer than the sources (others are editing them), the current sources are bundled with esbuild (what
// electron-vite does, minus Electron) into node_modules/.cache, so no TypeScript loader runs inside the
// process under test. --from-source runs the source through tsx instead. Which one ran is part of every
// report.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openDatabase } from '../../src-main/core/store/sqlite';
import { DATABASE_FILE } from '../../src-main/core/store/sqlite';
import { startChild, type Child } from './child';
import { newestMtime } from '../../scripts/start-lib.mjs';
import { TEST_BUILD_DIR } from '../../scripts/test-build.mjs';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUILT = join(ROOT, 'out/main/cli.js');
/** `npm test`'s build of the same sources (scripts/test-build.mjs): the smoke runs find it fresh there. */
const TEST_BUILT = join(ROOT, TEST_BUILD_DIR, 'main/cli.js');
const SOURCE = join(ROOT, 'src-main/cli/main.ts');

export interface DeskCommand {
  /** Arguments to `node` before the CLI's own. */
  nodeArgs: string[];
  label: string;
}

/** Inside node_modules so that the bundle's bare imports (better-sqlite3, commander, zod) resolve. */
const BUNDLE_DIR = join(ROOT, 'node_modules/.cache/wager-desk-bench');

async function bundle(): Promise<string> {
  const { build } = await import('esbuild');
  mkdirSync(BUNDLE_DIR, { recursive: true });
  // One file per benchmark process (a smoke run in `npm test` may bundle while a full run is going), removed at exit.
  const outfile = join(BUNDLE_DIR, `cli-${process.pid}.mjs`);
  process.once('exit', () => rmSync(outfile, { force: true }));
  await build({
    entryPoints: [SOURCE],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
  return outfile;
}

let chosen: Promise<DeskCommand> | null = null;

export function deskCommand(fromSource: boolean): Promise<DeskCommand> {
  chosen ??= (async (): Promise<DeskCommand> => {
    if (fromSource) return { nodeArgs: ['--import', 'tsx', SOURCE], label: 'source via tsx (--from-source)' };
    const why = !existsSync(BUILT)
      ? 'out/main/cli.js is not built'
      : statSync(BUILT).mtimeMs < newestMtime(join(ROOT, 'src-main'))
        ? 'out/main/cli.js is older than src-main'
        : null;
    if (why === null) return { nodeArgs: [BUILT], label: 'out/main/cli.js (built)' };
    if (existsSync(TEST_BUILT) && statSync(TEST_BUILT).mtimeMs >= newestMtime(join(ROOT, 'src-main'))) {
      return { nodeArgs: [TEST_BUILT], label: `${TEST_BUILD_DIR}/main/cli.js (built by npm test; ${why})` };
    }
    return { nodeArgs: [await bundle()], label: `src-main bundled by esbuild (${why})` };
  })();
  return chosen;
}

export const SECRET_ENV = 'WAGER_DESK_BENCH_SECRET';

export interface ServeOptions {
  home: string;
  /** Forward to this URL; null: the sandbox operator answers. */
  upstream: string | null;
  secret: string;
  ui: boolean;
  cpuProfDir?: string | null;
  /** Extra node flags for the serve process (e.g. --max-old-space-size). */
  nodeFlags?: string[];
  /** A team's PostgreSQL to capture into (--database); absent: the data directory's SQLite, whatever the environment says. */
  database?: string | null;
  /** Run on this CPU only (taskset); absent or null: wherever the system puts it. */
  cpu?: number | null;
}

export interface RunningServe {
  child: Child;
  proxyUrl: string;
  uiUrl: string | null;
}

export async function startServe(cmd: DeskCommand, o: ServeOptions): Promise<RunningServe> {
  const args = [
    ...(o.nodeFlags ?? []),
    ...(o.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', o.cpuProfDir] : []),
    ...cmd.nodeArgs,
    '--home',
    o.home,
    'serve',
    '--proxy-port',
    '0',
    '--secret-env',
    SECRET_ENV,
    ...(o.upstream ? ['--upstream', o.upstream] : []),
    ...(o.ui ? ['--ui-port', '0'] : ['--no-ui']),
  ];
  // The database in the environment (a password on the command line is refused); emptied for a SQLite
  // run, so a URL in the benchmark's own environment does not move it to PostgreSQL.
  const child = startChild(process.execPath, args, {
    env: { [SECRET_ENV]: o.secret, WAGER_DESK_HOME: o.home, WAGER_DESK_DATABASE_URL: o.database ?? '' },
    cwd: ROOT,
    cpu: o.cpu ?? null,
  });
  try {
    const m = await child.waitFor(/^proxy: (http:\/\/\S+)$/m, 60_000);
    let uiUrl: string | null = null;
    if (o.ui) {
      uiUrl = (await child.waitFor(/^ui: (\S+)$/m, 30_000))[1]!;
    }
    return { child, proxyUrl: m[1]!, uiUrl };
  } catch (err) {
    await child.stop(2_000);
    throw err;
  }
}

export interface RowCounts {
  inbound: number;
  /** Inbound rows whose response was recorded. */
  answered: number;
  valid: number;
  /** Distinct deposits among the inbound rows: 1 for a repeated callback, one a row with --distinct-keys. */
  deposits: number;
}

/** `wager-desk db migrate` on the URL (given in the environment) with this command's build: its own schema, which may be older than this one's. */
export async function migrateWith(cmd: DeskCommand, home: string, url: string): Promise<void> {
  const args = [...cmd.nodeArgs, '--home', home, 'db', 'migrate'];
  const env = { ...process.env, WAGER_DESK_HOME: home, WAGER_DESK_DATABASE_URL: url };
  try {
    await promisify(execFile)(process.execPath, args, { env, cwd: ROOT, timeout: 60_000 });
  } catch (err) {
    throw new Error(`${cmd.label}: db migrate failed: ${(err as { stderr?: string }).stderr || String(err)}`);
  }
}

/** Counts what the desk recorded (open read-only, after serve has exited). */
export function countRows(home: string): RowCounts {
  const db = openDatabase(join(home, DATABASE_FILE), { readonly: true });
  try {
    return db
      .prepare(
        `SELECT count(*) AS inbound, count(res_status) AS answered, sum(verdict = 'valid') AS valid, count(DISTINCT deposit_id) AS deposits FROM exchanges WHERE direction = 'inbound'`,
      )
      .get() as RowCounts;
  } finally {
    db.close();
  }
}

/** The other build's CLI, run as this one is (its out/main/cli.js, with its own node_modules or a link to these). */
export function baselineCommand(dir: string): DeskCommand {
  const cli = resolve(dir, 'out/main/cli.js');
  if (!existsSync(cli)) throw new Error(`--baseline ${dir}: ${cli} is not built (npm run build there)`);
  return { nodeArgs: [cli], label: `${cli} (baseline)` };
}
