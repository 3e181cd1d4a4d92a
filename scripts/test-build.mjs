// `npm test`'s build: the same electron-vite build as `npm run build`, into out-test/ instead of out/.
// A desk started from out/ (npm start, npx wager-desk serve) keeps serving its UI while the tests build:
// a rebuild of out/renderer empties it first, and a page loaded meanwhile found no UI. The test helpers
// run the CLI and serve the renderer from this folder (test/helpers/cli.ts, test/e2e/helpers/renderer.ts).
import { fileURLToPath } from 'node:url';

/** The test build's folder, relative to the checkout's root (gitignored). */
export const TEST_BUILD_DIR = 'out-test';

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  process.env.WAGER_DESK_BUILD_DIR = TEST_BUILD_DIR;
  const { build } = await import('electron-vite');
  await build({ root });
}
