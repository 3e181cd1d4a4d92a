// The export thread as `npm test` builds it, for tests that check the built file reads what the sources read.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { needsBuild } from '../../scripts/start-lib.mjs';
import { TEST_BUILD_DIR } from '../../scripts/test-build.mjs';
import type { ThreadScript } from '../../src-main/core/export/har-thread';

/**
 * The test build's export thread (`npm test` builds it first), where it is up to date; else null, and the
 * thread runs from source as everywhere else in the tests.
 */
export function builtExportThread(): ThreadScript | null {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const file = `${root}${TEST_BUILD_DIR}/main/export-thread.js`;
  return existsSync(file) && !needsBuild(root, TEST_BUILD_DIR) ? { source: file, eval: false } : null;
}
