// The decisions behind `npm start`, as functions of the checkout's root so that a test can check them on
// a temporary directory: is the build stale, and what to launch (the desktop app; where Electron's binary
// is missing, the desktop app after Electron's installer got it; the web mode where that fails).
// scripts/start.mjs carries them out; the installer and the native build are passed in, so a test can
// stand in for the network.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { electronBinaryPresent } from './ensure-electron-native.mjs';

/** The one line `npm start` prints where it cannot open the desktop app. */
export const WEB_MODE_NOTICE = "Electron's binary is not installed here; starting the web mode instead";

/** The same line with the reason the desktop app cannot open; always one line. */
export function webModeNotice(reason) {
  return `Cannot open the desktop app: ${String(reason)
    .replace(/\s*\n\s*/g, ' ')
    .trim()}; starting the web mode instead`;
}

/** How long the download host may take to answer before `npm start` gives up (offline, a firewall that drops). */
export const ELECTRON_REACH_TIMEOUT_MS = 15_000;
/** A backstop for the download itself, which Electron's installer does not bound. */
export const ELECTRON_INSTALL_TIMEOUT_MS = 15 * 60_000;

/** What the build reads, and what it writes: the build is stale when any input is newer than any output. */
export const BUILD_INPUTS = ['src-main', 'src-renderer', 'electron.vite.config.ts', 'package.json'];
export const BUILD_OUTPUTS = ['out/main/index.js', 'out/main/cli.js', 'out/preload/index.cjs', 'out/renderer/index.html'];

export function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/**
 * Whether `electron-vite build` must run before launching: an output is missing, or a source is newer.
 * `outDir`: the build's folder (out, or the tests' own, scripts/test-build.mjs).
 */
export function needsBuild(root, outDir = 'out') {
  let oldestOutput = Infinity;
  for (const out of BUILD_OUTPUTS) {
    const file = join(root, outDir, out.slice('out/'.length));
    if (!existsSync(file)) return true;
    oldestOutput = Math.min(oldestOutput, statSync(file).mtimeMs);
  }
  const newestInput = Math.max(...BUILD_INPUTS.map((p) => newestMtime(join(root, p))));
  return newestInput > oldestOutput;
}

/** The Electron executable electron's own index.js would return, without its download side effect. */
export function electronExecutable(root) {
  const dir = join(root, 'node_modules', 'electron');
  return join(dir, 'dist', readFileSync(join(dir, 'path.txt'), 'utf8').trim());
}

/**
 * What to launch. `--web` (ours, not passed on) asks for the web mode even where Electron is installed;
 * every other argument goes to the app (Electron) or to `wager-desk serve` (the web mode).
 * Returns { mode: 'electron' | 'web', command, args, notice? }.
 */
export function chooseLaunch(root, argv, execPath = process.execPath) {
  const web = argv.includes('--web');
  const rest = argv.filter((a) => a !== '--web');
  if (!web && electronBinaryPresent(root)) {
    return { mode: 'electron', command: electronExecutable(root), args: [root, ...rest] };
  }
  return {
    mode: 'web',
    command: execPath,
    args: [join(root, 'out', 'main', 'cli.js'), 'serve', ...rest],
    ...(web ? {} : { notice: WEB_MODE_NOTICE }),
  };
}

/** The environment for the child: Electron must not run as plain Node because a parent shell asked for it. */
export function childEnv(env) {
  const copy = { ...env };
  delete copy.ELECTRON_RUN_AS_NODE;
  return copy;
}

/**
 * Runs `task(signal)` (resolving null on success, else a reason) for at most `ms`; past that it aborts the
 * task and resolves `gave up after N s` with what was being waited for.
 */
export function withDeadline(task, ms, waitingFor) {
  const controller = new AbortController();
  let timer;
  const deadline = new Promise((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(`${waitingFor}: gave up after ${ms / 1000} s`);
    }, ms);
  });
  const run = Promise.resolve()
    .then(() => task(controller.signal))
    .catch((err) => (err instanceof Error ? err.message : String(err)));
  return Promise.race([run, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Gets Electron's binary with `installer` ({ reach(signal), install(signal) }, each resolving null or a
 * reason): the download host must answer within `reachTimeoutMs`, the installer finish within
 * `installTimeoutMs`, and the binary be there after it. Resolves { ok: true } or { ok: false, reason }.
 * ELECTRON_SKIP_BINARY_DOWNLOAD in the environment (CI, locked-down machines) means: do not download.
 */
export async function obtainElectron({
  root,
  installer,
  env = process.env,
  reachTimeoutMs = ELECTRON_REACH_TIMEOUT_MS,
  installTimeoutMs = ELECTRON_INSTALL_TIMEOUT_MS,
  log = () => {},
}) {
  const skip = env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  if (skip && skip !== '0' && skip !== 'false') return { ok: false, reason: "Electron's binary is not installed and ELECTRON_SKIP_BINARY_DOWNLOAD is set" };
  log("Electron's binary is not installed yet: getting it with Electron's installer (once; about 100 MB)...");
  const unreachable = await withDeadline((signal) => installer.reach(signal), reachTimeoutMs, "Electron's download host");
  if (unreachable) return { ok: false, reason: `Electron's binary could not be downloaded: ${unreachable}` };
  const failed = await withDeadline((signal) => installer.install(signal), installTimeoutMs, "Electron's installer");
  if (failed) return { ok: false, reason: `Electron's binary could not be downloaded: ${failed}` };
  if (!electronBinaryPresent(root)) return { ok: false, reason: "Electron's installer finished but the binary is not in node_modules/electron/dist" };
  return { ok: true };
}

/**
 * What `npm start` launches, after doing what the desktop app needs: `--web` asks for the web mode; where
 * Electron's binary is missing, `obtain()` gets it; then `ensureNative({ root })` makes the Electron build
 * of better-sqlite3. Where either fails, the web mode, with a one-line notice saying why.
 */
export async function prepareLaunch({ root, argv, obtain, ensureNative, execPath = process.execPath }) {
  const web = (reason) => ({ ...chooseLaunch(root, [...argv, '--web'], execPath), notice: webModeNotice(reason) });
  if (argv.includes('--web')) return chooseLaunch(root, argv, execPath);
  if (!electronBinaryPresent(root)) {
    const got = await obtain();
    if (!got.ok) return web(got.reason);
  }
  const native = await ensureNative({ root });
  if (native.status === 'failed') return web('the Electron build of better-sqlite3 could not be made (see above)');
  return chooseLaunch(root, argv, execPath);
}
