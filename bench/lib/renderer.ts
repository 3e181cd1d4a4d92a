// The built web UI for the UI benchmark: out/renderer when it is newer than the renderer's sources,
// else a fresh Vite build of the renderer alone into the scratch directory (never touching out/).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './desk-cli';

const BUILT_INDEX = join(ROOT, 'out', 'renderer', 'index.html');
const SOURCES = [join(ROOT, 'src-renderer'), join(ROOT, 'src-main', 'shared')];

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export async function rendererDir(scratch: string): Promise<{ dir: string; label: string }> {
  if (existsSync(BUILT_INDEX)) {
    const builtAt = statSync(BUILT_INDEX).mtimeMs;
    if (SOURCES.every((dir) => newestMtime(dir) <= builtAt)) return { dir: join(ROOT, 'out', 'renderer'), label: 'out/renderer (built)' };
  }
  const outDir = join(scratch, 'renderer');
  const { build } = await import('vite');
  const { default: react } = await import('@vitejs/plugin-react');
  await build({
    configFile: false,
    root: join(ROOT, 'src-renderer'),
    base: './',
    plugins: [react()],
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, rollupOptions: { input: join(ROOT, 'src-renderer', 'index.html') } },
  });
  return { dir: outDir, label: 'src-renderer built by Vite into scratch (out/renderer is missing or older than its sources)' };
}
