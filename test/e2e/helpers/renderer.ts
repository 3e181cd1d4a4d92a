// The built renderer for the e2e tests. `npm test` builds before vitest, so out/renderer is normally
// fresh and used as is. When it is missing or older than the renderer's sources (a developer running
// vitest directly), the renderer alone is built into a temporary folder (scripts/renderer-build.mjs).
import { fileURLToPath } from 'node:url';
import { buildRendererInto, freshBuiltRenderer } from '../../../scripts/renderer-build.mjs';
import { tempDirForSuite } from '../../helpers/temp';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export interface RendererBuild {
  dir: string;
  /** Removes a temporary build; a no-op for out/renderer. */
  remove(): void;
}

export async function builtRenderer(): Promise<RendererBuild> {
  const fresh = freshBuiltRenderer(root);
  if (fresh !== null) return { dir: fresh, remove: () => {} };
  const out = tempDirForSuite('wager-desk-renderer-build-');
  await buildRendererInto(root, out.dir);
  return out;
}
