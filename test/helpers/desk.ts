// The real desk in a fresh data directory, closed when the test finishes (call inside a test).
import { createDesk, type Desk } from '../../src-main/core/desk';
import { storeOf } from '../../src-main/core/desk/seams';
import { connectionOf, type Db } from '../../src-main/core/store/sqlite';
import { closeAfterTest } from './closing';
import { tempDir } from './temp';

export { featureDepsOf, logOf, secretsOf, storeOf } from '../../src-main/core/desk/seams';

export function openDesk(home = tempDir()): Desk {
  return closeAfterTest(createDesk({ home }));
}

/** The desk's own SQLite connection, for tests that inspect the file or fill it fast. */
export function sqliteOf(desk: Desk): Db {
  return connectionOf(storeOf(desk));
}
