// The built renderer for the e2e tests. `npm test` builds before vitest, so out/renderer is normally
// fresh and used as is. When it is missing or older than the renderer's sources (a developer running
// vitest directly), the renderer alone is built with Vite's API into a temporary folder: no collision
// with a concurrent `electron-vite build`, and no dependence on the main process bundle.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDirForSuite } from '../../helpers/temp';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const builtIndex = join(root, 'out', 'renderer', 'index.html');
const SOURCES = [join(root, 'src-renderer'), join(root, 'src-main', 'shared')];

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export interface RendererBuild {
  dir: string;
  /** Removes a temporary build; a no-op for out/renderer. */
  remove(): void;
}

export async function builtRenderer(): Promise<RendererBuild> {
  if (existsSync(builtIndex)) {
    const builtAt = statSync(builtIndex).mtimeMs;
    if (SOURCES.every((dir) => newestMtime(dir) <= builtAt)) return { dir: join(root, 'out', 'renderer'), remove: () => {} };
  }
  const out = tempDirForSuite('wager-desk-renderer-build-');
  const { build } = await import('vite');
  const { default: react } = await import('@vitejs/plugin-react');
  await build({
    configFile: false,
    root: join(root, 'src-renderer'),
    base: './',
    plugins: [react()],
    logLevel: 'warn',
    build: { outDir: out.dir, emptyOutDir: true, rollupOptions: { input: join(root, 'src-renderer', 'index.html') } },
  });
  return out;
}
