// The built renderer for the e2e tests. `npm test` builds before vitest into a folder of its own
// (scripts/test-build.mjs), so out-test/renderer is normally fresh and used as is. When it is missing or
// older than the renderer's sources (a developer running vitest directly), the renderer alone is built
// into a temporary folder (scripts/renderer-build.mjs).
import { fileURLToPath } from 'node:url';
import { buildRendererInto, freshBuiltRenderer } from '../../../scripts/renderer-build.mjs';
import { TEST_BUILD_DIR } from '../../../scripts/test-build.mjs';
import { tempDirForSuite } from '../../helpers/temp';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export interface RendererBuild {
  dir: string;
  /** Removes a temporary build; a no-op for the test build's renderer. */
  remove(): void;
}

export async function builtRenderer(): Promise<RendererBuild> {
  const fresh = freshBuiltRenderer(root, TEST_BUILD_DIR);
  if (fresh !== null) return { dir: fresh, remove: () => {} };
  const out = tempDirForSuite('wager-desk-renderer-build-');
  await buildRendererInto(root, out.dir);
  return out;
}
