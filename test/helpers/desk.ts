// The real desk in a fresh data directory, closed when the test finishes (call inside a test).
import { createDesk, type Desk } from '../../src-main/core/desk';
import { closeAfterTest } from './closing';
import { tempDir } from './temp';

export function openDesk(home = tempDir()): Desk {
  return closeAfterTest(createDesk({ home }));
}
