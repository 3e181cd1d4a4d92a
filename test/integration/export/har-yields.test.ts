// A large HAR export built on the event loop the proxy shares (where the export thread cannot start): the
// text must come out entry by entry with the loop's other work running between entries, and still be
// exactly JSON.stringify's text of the whole HAR, built there or on the export thread.
import { describe, expect, it } from 'vitest';
import { connectionOf, openStore } from '../../../src-main/core/store/sqlite';
import { sqliteLog } from '../../../src-main/core/store/sqlite/log';
import { harEntry, harWith } from '../../../src-main/core/export/har-build';
import { harText } from '../../../src-main/core/export/har-text';
import { HarThread } from '../../../src-main/core/export/har-thread';
import type { ExchangeDetail } from '../../../src-main/shared/model';
import type { DetailRows } from '../../../src-main/core/store/rows/exchange-rows';
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
    const read = async (slice: readonly number[]): Promise<DetailRows> => {
      const x = await log.detailRows(slice);
      reads += x.rows.length;
      ticksAtLastRead = ticks;
      return x;
    };
    const text = await harText(ids, read, [SECRET], 'a comment');
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
    const thread = HarThread.create()!;
    try {
      for (const build of [undefined, thread.build]) {
        expect(await harText(ids, (slice) => log.detailRows(slice), [SECRET], comment, build)).toBe(whole(details, comment));
        expect(await harText([], (slice) => log.detailRows(slice), [SECRET], comment, build)).toBe(whole([], comment));
        expect(await harText([999_999], (slice) => log.detailRows(slice), [SECRET], comment, build)).toBe(whole([], comment));
      }
    } finally {
      await thread.close();
      store.close();
    }
  });
});
