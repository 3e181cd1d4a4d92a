#!/usr/bin/env node
// `npm start`: opens the desktop app; where that cannot be, says why in one line and starts the web mode
// (`wager-desk serve`, which prints its `ui:` URL) instead.
//
// 1. Builds (electron-vite build) when an output is missing or a source is newer than the outputs, so a
//    fresh checkout and an edited one both start what their sources say; an up-to-date build is reused.
//    WAGER_DESK_SKIP_BUILD=1 skips this check. Build output goes to stderr: stdout stays the app's.
// 2. Desktop: where Electron's binary is missing (Electron downloads it on first use, not at install), runs
//    Electron's own installer, its progress on stderr (scripts/electron-install.mjs); offline it gives up
//    within about 15 s. Then makes sure the Electron build of better-sqlite3 exists
//    (scripts/ensure-electron-native.mjs) and runs Electron on the checkout (package.json "main" is
//    out/main/index.js). Where either cannot be had, the web mode starts instead, saying why in one line.
// 3. Web mode: `node out/main/cli.js serve [args]`, output and exit code passed through.
// `npm start -- --web` asks for the web mode explicitly; other arguments go to Electron or to `serve`.
import { spawn, spawnSync } from 'node:child_process';
import { constants } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronInstaller } from './electron-install.mjs';
import { ensureElectronNative } from './ensure-electron-native.mjs';
import { childEnv, needsBuild, obtainElectron, prepareLaunch } from './start-lib.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);

if (process.env.WAGER_DESK_SKIP_BUILD !== '1' && needsBuild(root)) {
  process.stderr.write('Building Wager Desk (electron-vite build)...\n');
  const built = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  });
  if (built.status !== 0) {
    process.stderr.write('wager-desk: the build failed (see above); nothing was started.\n');
    process.exit(built.status ?? 1);
  }
}

const launch = await prepareLaunch({
  root,
  argv,
  obtain: () => obtainElectron({ root, installer: electronInstaller(root), log: (line) => process.stderr.write(`${line}\n`) }),
  ensureNative: ensureElectronNative,
});
if (launch.notice) process.stdout.write(`${launch.notice}\n`);

const child = spawn(launch.command, launch.args, { cwd: root, stdio: 'inherit', env: childEnv(process.env) });
// Signals sent to this wrapper (npm forwards Ctrl+C; a supervisor sends SIGTERM) reach the app, which
// closes its desk cleanly; the app may also get Ctrl+C from the terminal itself: quitting twice is harmless.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (child.exitCode === null) child.kill(signal);
  });
}
child.on('error', (err) => {
  process.stderr.write(`wager-desk: could not start ${launch.command}: ${err.message}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1));
});
