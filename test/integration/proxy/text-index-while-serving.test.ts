// While the proxy runs, the text index follows its captures in the background (a worker thread with its
// own connection), and the desk's close stops it.
import { describe, expect, it } from 'vitest';
import { send, startProxy } from './helpers';
import { openDesk, sqliteOf } from '../../helpers/desk';

describe('the text index while the proxy serves', () => {
  it('indexes the captures as they come, and stops with the desk', async () => {
    const desk = openDesk();
    const db = sqliteOf(desk);
    const { url } = await startProxy(desk);
    for (let i = 0; i < 12; i++) await send(url, { headers: { 'content-type': 'application/json' }, body: `{"memo":"Shearwater ${i}"}` });
    const newest = db.prepare('SELECT max(id) FROM exchanges').pluck().get() as number;
    expect(newest).toBeGreaterThanOrEqual(12);
    const indexedUpto = (): number => db.prepare('SELECT indexed_upto FROM exchange_text_state').pluck().get() as number;
    const deadline = Date.now() + 30_000;
    while (indexedUpto() < newest) {
      if (Date.now() > deadline) throw new Error(`indexed up to ${indexedUpto()} of ${newest}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const inIndex = db.prepare(`SELECT count(DISTINCT rowid >> 1) FROM exchange_text WHERE exchange_text MATCH '"shearwater"'`).pluck().get();
    expect(inIndex).toBe(12);
    await desk.close();
  }, 60_000);
});
