// The web UI alone, for the e2e tests and the UI benchmark: out/renderer when it is newer than its
// sources, else a Vite build of the renderer into a folder of the caller's (never out/, so it cannot
// collide with a concurrent `electron-vite build` nor depend on the main-process bundle).
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { newestMtime } from './start-lib.mjs';

/**
 * <outDir>/renderer (out/renderer, or the tests' own build's), when it exists and no source of the
 * renderer (or the shared types) is newer; else null.
 */
export function freshBuiltRenderer(root, outDir = 'out') {
  const index = join(root, outDir, 'renderer', 'index.html');
  if (!existsSync(index)) return null;
  const builtAt = statSync(index).mtimeMs;
  const sources = [join(root, 'src-renderer'), join(root, 'src-main', 'shared')];
  return sources.every((dir) => newestMtime(dir) <= builtAt) ? join(root, outDir, 'renderer') : null;
}

/** Builds the renderer with Vite's API into outDir. */
export async function buildRendererInto(root, outDir) {
  const { build } = await import('vite');
  const { default: react } = await import('@vitejs/plugin-react');
  await build({
    configFile: false,
    root: join(root, 'src-renderer'),
    base: './',
    plugins: [react()],
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, rollupOptions: { input: join(root, 'src-renderer', 'index.html') } },
  });
}
