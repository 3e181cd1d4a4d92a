// scripts/ensure-electron-native.mjs on a stand-in checkout: the Electron build of better-sqlite3 is made in
// a temporary copy and kept in .native/, and node_modules/better-sqlite3 (the Node build) is never touched.
// prebuild-install and node-gyp need the network; a stand-in runner plays them.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureElectronNative, nativeCopyPath, type RunCommand } from '../../../scripts/ensure-electron-native.mjs';
import { tempDir } from '../../helpers/temp';

const VERSION = '45.4.1';

function write(path: string, content: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
}

/** A checkout with better-sqlite3 built for Node, and Electron's package with or without its binary. */
function checkout(withBinary: boolean): string {
  const root = tempDir('wager-desk-native-');
  write(join(root, 'node_modules', 'electron', 'package.json'), JSON.stringify({ name: 'electron', version: VERSION }));
  if (withBinary) {
    write(join(root, 'node_modules', 'electron', 'path.txt'), 'electron');
    write(join(root, 'node_modules', 'electron', 'dist', 'electron'), 'binary');
  }
  const pkg = join(root, 'node_modules', 'better-sqlite3');
  write(join(pkg, 'package.json'), JSON.stringify({ name: 'better-sqlite3', version: '12.0.0' }));
  write(join(pkg, 'lib', 'index.js'), 'module.exports = {};');
  write(join(pkg, 'deps', 'sqlite3', 'sqlite3.c'), '/* sqlite */');
  write(join(pkg, 'build', 'Release', 'better_sqlite3.node'), 'NODE-ABI');
  write(join(pkg, 'node_modules', 'nested', 'index.js'), '');
  return root;
}

function nodeBuild(root: string): string {
  return readFileSync(join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'), 'utf8');
}

interface Call {
  args: string[];
  cwd: string;
  sawBuildDir: boolean;
  sawSources: boolean;
  sawNested: boolean;
}

/** Plays prebuild-install / node-gyp: `results[i]` says whether call i succeeds and leaves a binary. */
function standIn(results: boolean[]): { run: RunCommand; calls: Call[] } {
  const calls: Call[] = [];
  const run: RunCommand = async (_command, args, cwd) => {
    calls.push({
      args,
      cwd,
      sawBuildDir: existsSync(join(cwd, 'build')),
      sawSources: existsSync(join(cwd, 'deps', 'sqlite3', 'sqlite3.c')) && existsSync(join(cwd, 'package.json')),
      sawNested: existsSync(join(cwd, 'node_modules')),
    });
    const ok = results[calls.length - 1] ?? false;
    if (ok) write(join(cwd, 'build', 'Release', 'better_sqlite3.node'), `ELECTRON-ABI via call ${calls.length}`);
    return ok;
  };
  return { run, calls };
}

const quiet = () => undefined;

describe('ensureElectronNative', () => {
  it("does nothing, and says so, where Electron's binary was not downloaded", async () => {
    const root = checkout(false);
    const { run, calls } = standIn([true]);
    const lines: string[] = [];
    const result = await ensureElectronNative({ root, run, log: (l) => lines.push(l) });
    expect(result.status).toBe('no-electron');
    expect(calls).toEqual([]);
    expect(existsSync(join(root, '.native'))).toBe(false);
    expect(lines).toEqual([expect.stringContaining("Electron's binary is not installed")]);
  });

  it('takes a prebuilt binary for Electron in a temporary copy, and leaves the Node build alone', async () => {
    const root = checkout(true);
    write(nativeCopyPath(root, '44.0.0'), 'FOR AN ELECTRON NO LONGER INSTALLED');
    const { run, calls } = standIn([true]);
    const result = await ensureElectronNative({ root, run, log: quiet, arch: 'x64', platform: 'linux' });
    expect(result).toMatchObject({ status: 'built', path: nativeCopyPath(root, VERSION) });
    expect(readFileSync(nativeCopyPath(root, VERSION), 'utf8')).toBe('ELECTRON-ABI via call 1');
    expect(nodeBuild(root)).toBe('NODE-ABI');
    // Only the installed version's build stays, since packaging ships all of .native.
    expect(readdirSync(join(root, '.native'))).toEqual([`electron-${VERSION}`]);

    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call!.args).toEqual(expect.arrayContaining(['--runtime', 'electron', '--target', VERSION, '--arch', 'x64', '--platform', 'linux']));
    expect(call!.args[0]).toMatch(/prebuild-install[\\/]bin\.js$/);
    // A copy outside the checkout, with the sources but without the Node build or nested modules...
    expect(call!.cwd.startsWith(root)).toBe(false);
    expect(call!).toMatchObject({ sawBuildDir: false, sawSources: true, sawNested: false });
    // ...removed afterwards.
    expect(existsSync(call!.cwd)).toBe(false);
  });

  it("falls back to compiling against Electron's headers when no prebuilt binary is found", async () => {
    const root = checkout(true);
    const { run, calls } = standIn([false, true]);
    const result = await ensureElectronNative({ root, run, log: quiet, arch: 'arm64' });
    expect(result.status).toBe('built');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.args).toEqual(expect.arrayContaining(['rebuild', `--target=${VERSION}`, '--arch=arm64', '--dist-url=https://electronjs.org/headers']));
    expect(calls[1]!.args[0]).toMatch(/node-gyp[\\/]bin[\\/]node-gyp\.js$/);
    expect(readFileSync(nativeCopyPath(root, VERSION), 'utf8')).toBe('ELECTRON-ABI via call 2');
    expect(nodeBuild(root)).toBe('NODE-ABI');
  });

  it('keeps an existing copy without building again, unless forced', async () => {
    const root = checkout(true);
    write(nativeCopyPath(root, VERSION), 'EARLIER');
    const first = standIn([true]);
    expect((await ensureElectronNative({ root, run: first.run, log: quiet })).status).toBe('present');
    expect(first.calls).toEqual([]);
    expect(readFileSync(nativeCopyPath(root, VERSION), 'utf8')).toBe('EARLIER');

    const forced = standIn([true]);
    expect((await ensureElectronNative({ root, run: forced.run, log: quiet, force: true })).status).toBe('built');
    expect(readFileSync(nativeCopyPath(root, VERSION), 'utf8')).toBe('ELECTRON-ABI via call 1');
  });

  it('reports a failure, writes nothing and cleans up when neither way works', async () => {
    const root = checkout(true);
    const { run, calls } = standIn([false, false]);
    const lines: string[] = [];
    const result = await ensureElectronNative({ root, run, log: (l) => lines.push(l) });
    expect(result.status).toBe('failed');
    expect(result.message).toContain('web mode');
    expect(existsSync(nativeCopyPath(root, VERSION))).toBe(false);
    const dir = join(root, '.native', `electron-${VERSION}`);
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
    expect(calls.every((c) => !existsSync(c.cwd))).toBe(true);
    expect(nodeBuild(root)).toBe('NODE-ABI');
    expect(lines.at(-1)).toBe(result.message);
  });

  it('does not count a tool that says it succeeded but left no binary', async () => {
    const root = checkout(true);
    const calls: string[] = [];
    const result = await ensureElectronNative({
      root,
      log: quiet,
      run: async (_c, args) => {
        calls.push(args[0] ?? '');
        return true;
      },
    });
    expect(calls).toHaveLength(2);
    expect(result.status).toBe('failed');
  });
});
