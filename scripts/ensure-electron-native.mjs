#!/usr/bin/env node
// Makes sure an Electron-ABI build of better-sqlite3 exists at .native/electron-<version>/better_sqlite3.node.
//
// Why: node_modules/better-sqlite3/build holds the build for Node (tests, CLI, web mode). Electron needs a
// build for its own ABI. Rebuilding node_modules in place (electron-rebuild) would break `npm test`; so the
// Electron build is made in a temporary copy of the package and kept beside it, and the main process
// passes its path as better-sqlite3's `nativeBinding` (src-main/electron/native-binding.ts reads the same
// layout). node_modules/better-sqlite3 is never written to.
//
// How: a prebuilt binary for Electron (prebuild-install --runtime electron), else a compile against
// Electron's headers (node-gyp --dist-url=https://electronjs.org/headers). Both need the network once.
// Where Electron's binary was not downloaded (node_modules/electron/dist missing), there is nothing to
// build for: say so and do nothing.
//
// Usage: node scripts/ensure-electron-native.mjs [--force]   (exit 0 even when it cannot build: a missing
// copy only matters to the desktop app, which says so itself; --strict exits 1 instead, for `npm run dist`)
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NATIVE_FILE = 'better_sqlite3.node';

/** The installed Electron's version, or null when the package is absent. */
export function electronVersion(root) {
  const pkg = join(root, 'node_modules', 'electron', 'package.json');
  if (!existsSync(pkg)) return null;
  return JSON.parse(readFileSync(pkg, 'utf8')).version ?? null;
}

/** Whether Electron's binary was downloaded (what electron's own index.js checks, without downloading). */
export function electronBinaryPresent(root) {
  const dir = join(root, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(join(dir, 'dist')) || !existsSync(pathFile)) return false;
  return existsSync(join(dir, 'dist', readFileSync(pathFile, 'utf8').trim()));
}

export function nativeCopyPath(root, version) {
  return join(root, '.native', `electron-${version}`, NATIVE_FILE);
}

/** Drops the builds for Electron versions no longer installed: `npm run dist` ships everything in .native. */
function removeOtherVersions(root, version) {
  const dir = join(root, '.native');
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith('electron-') && entry !== `electron-${version}`) rmSync(join(dir, entry), { recursive: true, force: true });
  }
}

/** Runs a command; resolves true on exit code 0. Output goes to stderr so stdout stays the caller's. */
export function runCommand(command, args, cwd, env = process.env) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', () => resolvePromise(false));
    child.on('exit', (code) => resolvePromise(code === 0));
  });
}

/** The two ways to get the Electron build inside a copy of the package, tried in order. */
export function buildStrategies(root, { version, arch, platform }) {
  const bin = (...p) => join(root, 'node_modules', ...p);
  const electronEnv = {
    ...process.env,
    npm_config_runtime: 'electron',
    npm_config_target: version,
    npm_config_disturl: 'https://electronjs.org/headers',
    npm_config_arch: arch,
  };
  return [
    {
      name: 'prebuild-install (a prebuilt binary for Electron)',
      command: process.execPath,
      args: [bin('prebuild-install', 'bin.js'), '--runtime', 'electron', '--target', version, '--arch', arch, '--platform', platform, '--verbose'],
      env: electronEnv,
    },
    {
      name: 'node-gyp (compiling against Electron headers)',
      command: process.execPath,
      args: [
        bin('node-gyp', 'bin', 'node-gyp.js'),
        'rebuild',
        '--release',
        `--target=${version}`,
        `--arch=${arch}`,
        '--dist-url=https://electronjs.org/headers',
      ],
      env: electronEnv,
    },
  ];
}

/**
 * Ensures the Electron copy exists. Returns { status, path?, message }: status is 'no-electron' (binary not
 * downloaded: nothing to do), 'present' (already there), 'built' (made now) or 'failed'.
 * `run` is injectable so a test can stand in for the network tools.
 */
export async function ensureElectronNative({
  root,
  force = false,
  arch = process.arch,
  platform = process.platform,
  run = runCommand,
  log = (line) => process.stderr.write(`${line}\n`),
} = {}) {
  if (!electronBinaryPresent(root)) {
    const message = "Electron's binary is not installed (node_modules/electron/dist is missing): no Electron build of better-sqlite3 needed.";
    log(message);
    return { status: 'no-electron', message };
  }
  const version = electronVersion(root);
  const target = nativeCopyPath(root, version);
  if (existsSync(target) && !force) return { status: 'present', path: target, message: `Electron build of better-sqlite3 present: ${target}` };

  const source = join(root, 'node_modules', 'better-sqlite3');
  const work = mkdtempSync(join(tmpdir(), 'wager-desk-native-'));
  try {
    const pkg = join(work, 'better-sqlite3');
    // Everything but build/ (the Node build) and nested node_modules: sources, deps/, package.json.
    const skipped = new Set([resolve(source, 'build'), resolve(source, 'node_modules')]);
    cpSync(source, pkg, { recursive: true, filter: (src) => !skipped.has(resolve(src)) });
    log(`Getting better-sqlite3 for Electron ${version} (${platform}-${arch}) in a temporary copy; node_modules stays as it is.`);
    for (const strategy of buildStrategies(root, { version, arch, platform })) {
      log(`  trying ${strategy.name}...`);
      const ok = await run(strategy.command, strategy.args, pkg, strategy.env);
      const built = join(pkg, 'build', 'Release', NATIVE_FILE);
      if (ok && existsSync(built)) {
        mkdirSync(dirname(target), { recursive: true });
        // Copy then rename: a reader never sees half a file, and an interrupted run leaves no broken copy.
        const partial = `${target}.partial-${process.pid}`;
        copyFileSync(built, partial);
        renameSync(partial, target);
        removeOtherVersions(root, version);
        const message = `Electron build of better-sqlite3 written to ${target}`;
        log(message);
        return { status: 'built', path: target, message };
      }
    }
    const message =
      `Could not get better-sqlite3 for Electron ${version}: both prebuild-install and node-gyp failed ` +
      '(they need the network, and node-gyp a C++ toolchain). The web mode (`npx wager-desk serve`) still works.';
    log(message);
    return { status: 'failed', path: target, message };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const invokedDirectly = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const argv = process.argv.slice(2);
  const result = await ensureElectronNative({ root, force: argv.includes('--force') });
  if (result.status === 'present') process.stderr.write(`${result.message}\n`);
  process.exitCode = result.status === 'failed' && argv.includes('--strict') ? 1 : 0;
}
