// What a test opens (a desk, a stand-in server) is closed when the test finishes, newest first,
// whether it passed or not. vitest runs these before the temp-dir removals registered earlier
// (tempDir() uses the same hook), so a desk is closed before its data directory goes. Closing twice
// is harmless for desks and servers, so a test may still close one itself mid-way. Call inside a test.
import { onTestFinished } from 'vitest';

export function closeAfterTest<T extends { close(): unknown }>(thing: T): T {
  onTestFinished(async () => {
    await thing.close();
  });
  return thing;
}
