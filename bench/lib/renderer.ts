// The built web UI for the UI benchmark: out/renderer when it is newer than the renderer's sources, else
// `npm test`'s build of it (out-test/renderer), else a fresh build of the renderer alone into the scratch
// directory (scripts/renderer-build.mjs).
import { join } from 'node:path';
import { buildRendererInto, freshBuiltRenderer } from '../../scripts/renderer-build.mjs';
import { TEST_BUILD_DIR } from '../../scripts/test-build.mjs';
import { ROOT } from './desk-cli';

export async function rendererDir(scratch: string): Promise<{ dir: string; label: string }> {
  const fresh = freshBuiltRenderer(ROOT);
  if (fresh !== null) return { dir: fresh, label: 'out/renderer (built)' };
  const tests = freshBuiltRenderer(ROOT, TEST_BUILD_DIR);
  if (tests !== null) return { dir: tests, label: `${TEST_BUILD_DIR}/renderer (built by npm test)` };
  const outDir = join(scratch, 'renderer');
  await buildRendererInto(ROOT, outDir);
  return { dir: outDir, label: 'src-renderer built by Vite into scratch (out/renderer is missing or older than its sources)' };
}
