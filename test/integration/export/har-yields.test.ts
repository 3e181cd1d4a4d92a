// A large HAR export on the event loop the proxy shares: the text must come out entry by entry with the
// loop's other work running between entries, and still be exactly JSON.stringify's text of the whole HAR.
import { describe, expect, it } from 'vitest';
import { connectionOf, openStore } from '../../../src-main/core/store/sqlite';
import { sqliteLog } from '../../../src-main/core/store/sqlite/log';
import { harEntry, harWith } from '../../../src-main/core/export/har-build';
import { harText } from '../../../src-main/core/export/har-text';
import type { ExchangeDetail } from '../../../src-main/shared/model';
import { inboundRow } from '../../helpers/exchanges';
import { tempDir } from '../../helpers/temp';

const ROWS = 600;
const SECRET = 'the-signing-secret';

function filledLog() {
  const store = openStore(tempDir());
  connectionOf(store).transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      // Newlines, quotes and non-ASCII in a body, a secret in a header: what the layout and redaction must survive.
      const body = Buffer.from(`{"depositId":"d-${i}","memo":"line\\nnext \\"quoted\\" é ${'x'.repeat(2_000)}"}\n`);
      store.exchanges.insert(
        inboundRow({
          body,
          size: body.length,
          headers: [
            ['content-type', 'application/json'],
            ['x-server-authorization', SECRET],
          ],
        }),
      );
    }
  })();
  return store;
}

describe('the HAR text of a large export', () => {
  it('lets the event loop turn between entries, after the last read too', async () => {
    const store = filledLog();
    const log = sqliteLog(store);
    const ids = Array.from({ length: ROWS }, (_, i) => i + 1);
    let ticks = 0;
    let ticksAtLastRead = 0;
    let reads = 0;
    let running = true;
    const tick = (): void => {
      ticks++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const get = async (id: number): Promise<ExchangeDetail | null> => {
      const x = await log.get(id);
      reads++;
      ticksAtLastRead = ticks;
      return x;
    };
    const text = await harText(ids, get, [SECRET], 'a comment');
    running = false;
    expect(reads).toBe(ROWS);
    // Built in one go, the entries would let the ticker turn once at most after the last read; built entry
    // by entry, it turns once per entry of the last slice read, and once per entry over the whole export.
    expect(ticks - ticksAtLastRead).toBeGreaterThanOrEqual(40);
    expect(ticks).toBeGreaterThanOrEqual(ROWS);
    expect(text).not.toContain(SECRET);
    store.close();
  });

  it('is byte for byte JSON.stringify of the whole HAR, with entries and without', async () => {
    const store = filledLog();
    const log = sqliteLog(store);
    const ids = [1, 2, 3, 999_999, 4];
    const details = (await Promise.all(ids.map((id) => log.get(id)))).filter((x): x is ExchangeDetail => x !== null);
    const whole = (entries: ExchangeDetail[], comment: string): string =>
      `${JSON.stringify(
        harWith(
          entries.map((x) => harEntry(x, [SECRET])),
          comment,
        ),
        null,
        2,
      )}\n`;
    // A comment that holds the entries' key and an empty array, as text: only the real key is the entries'.
    const comment = 'Exported: "entries": [] of 4';
    expect(await harText(ids, (id) => log.get(id), [SECRET], comment)).toBe(whole(details, comment));
    expect(await harText([], (id) => log.get(id), [SECRET], comment)).toBe(whole([], comment));
    expect(await harText([999_999], (id) => log.get(id), [SECRET], comment)).toBe(whole([], comment));
    store.close();
  });
});
