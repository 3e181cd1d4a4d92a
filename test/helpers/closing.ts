// What a test opens (a desk, a stand-in server) is closed after it, newest first, whether the test
// passed or not. Closing twice is harmless for both, so a test may still close one itself mid-way.
import { afterEach } from 'vitest';

export function closeAfterEach(): <T extends { close(): unknown }>(thing: T) => T {
  const open: Array<{ close(): unknown }> = [];
  afterEach(async () => {
    for (const thing of open.splice(0).reverse()) await thing.close();
  });
  return (thing) => {
    open.push(thing);
    return thing;
  };
}
