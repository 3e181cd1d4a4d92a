// The decisions behind `npm start`, as functions of the checkout's root so that a test can check them on
// a temporary directory: is the build stale, and what to launch (the desktop app, or the web mode where
// Electron's binary is absent). scripts/start.mjs carries them out.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { electronBinaryPresent } from './ensure-electron-native.mjs';

/** The one line `npm start` prints where it cannot open the desktop app. */
export const WEB_MODE_NOTICE = "Electron's binary is not installed here; starting the web mode instead";

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

/** Whether `electron-vite build` must run before launching: an output is missing, or a source is newer. */
export function needsBuild(root) {
  let oldestOutput = Infinity;
  for (const out of BUILD_OUTPUTS) {
    const file = join(root, out);
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
