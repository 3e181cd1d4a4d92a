// `npm test` builds into a folder of its own: a desk started from out/ (npm start, npx wager-desk serve)
// keeps serving its UI while the tests build, and the tests run what they built. `npm run build`, the
// package's bin and electron-builder keep out/.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfigFromFile } from 'electron-vite';
import { afterEach, describe, expect, it } from 'vitest';
import { needsBuild } from '../../../scripts/start-lib.mjs';
import { TEST_BUILD_DIR } from '../../../scripts/test-build.mjs';
import { cliCommand, cliEnv } from '../../helpers/cli';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string>; main: string };

/** Where each of the three builds writes, with WAGER_DESK_BUILD_DIR as given. */
async function outDirs(buildDir: string | undefined): Promise<string[]> {
  if (buildDir === undefined) delete process.env.WAGER_DESK_BUILD_DIR;
  else process.env.WAGER_DESK_BUILD_DIR = buildDir;
  const loaded = await loadConfigFromFile({ command: 'build', mode: 'production' }, `${root}electron.vite.config.ts`, root);
  const config = loaded.config as Record<'main' | 'preload' | 'renderer', { build?: { outDir?: string } }>;
  return (['main', 'preload', 'renderer'] as const).map((t) => String(config[t].build?.outDir).replace(root, '').replace(/^\//, ''));
}

afterEach(() => {
  delete process.env.WAGER_DESK_BUILD_DIR;
});

describe("npm test's build", () => {
  it('builds with scripts/test-build.mjs, not into out/', () => {
    expect(pkg.scripts.test).toContain('npm run build:test');
    expect(pkg.scripts.test).not.toMatch(/npm run build(?!:)|electron-vite build/);
    expect(pkg.scripts['build:test']).toBe('node scripts/test-build.mjs');
    // What a desk runs from is still out/.
    expect(pkg.scripts.build).toBe('electron-vite build');
    expect(pkg.main).toBe('./out/main/index.js');
  });

  it('writes every piece under the test build folder, and under out/ otherwise', async () => {
    expect(await outDirs(TEST_BUILD_DIR)).toEqual([`${TEST_BUILD_DIR}/main`, `${TEST_BUILD_DIR}/preload`, `${TEST_BUILD_DIR}/renderer`]);
    expect(await outDirs(undefined)).toEqual(['out/main', 'out/preload', 'out/renderer']);
  }, 60_000);

  it('runs the CLI of the test build when it is fresh, serving the UI of the same build', () => {
    const { args } = cliCommand();
    if (!needsBuild(root, TEST_BUILD_DIR) && process.env.CLI_FROM_SOURCE !== '1') expect(args).toEqual([`${root}${TEST_BUILD_DIR}/main/cli.js`]);
    else expect(args.at(-1)).toBe(`${root}src-main/cli/main.ts`);
    expect(cliEnv({}).WAGER_DESK_RENDERER_DIR).toBe(`${root}${TEST_BUILD_DIR}/renderer`);
    expect(cliEnv({ WAGER_DESK_RENDERER_DIR: '/elsewhere' }).WAGER_DESK_RENDERER_DIR).toBe('/elsewhere');
  });
});
