// The export thread builds the same text the proxy's thread built, byte for byte, whatever the details
// hold: secrets in headers, paths, queries and bodies, in their several forms; bodies that are not UTF-8;
// no answer at all. It ends with its owner, and its jobs under way fail then rather than hang.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectionOf, openStore } from '../../../src-main/core/store/sqlite';
import { sqliteLog } from '../../../src-main/core/store/sqlite/log';
import { harEntriesHere, type HarSlice, type ReadSlice } from '../../../src-main/core/export/har-entries-text';
import { harEntry, harWith } from '../../../src-main/core/export/har-build';
import { harText } from '../../../src-main/core/export/har-text';
import { toDetails } from '../../../src-main/core/store/rows/exchange-rows';
import { HarThread, HarThreadEnded } from '../../../src-main/core/export/har-thread';
import { EXPORT_THREAD_NICE } from '../../../src-main/core/export/har-thread-messages';
import { inboundRow } from '../../helpers/exchanges';
import { tempDir } from '../../helpers/temp';

const SECRET = 'the-export-thread-secret';
const API_KEY = 'ak_export_thread_0123456789';

/** The secret as it may appear: plain, hex, base64, base64url, percent-encoded twice, JSON-escaped. */
const FORMS = [
  SECRET,
  Buffer.from(SECRET).toString('hex'),
  Buffer.from(SECRET).toString('base64'),
  Buffer.from(SECRET).toString('base64url'),
  encodeURIComponent(encodeURIComponent(SECRET)).replaceAll('-', '%252D'),
  [...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
];

/** A slice of rows as the log reads them, answers added: the secret in every form, in every part of an exchange. */
async function slice(): Promise<ReadSlice> {
  const store = openStore(tempDir());
  const ids: number[] = [];
  connectionOf(store).transaction(() => {
    FORMS.forEach((form, i) => {
      const body = Buffer.from(`{"depositId":"d-${i}","memo":"${form} line\\nnext é"}`);
      ids.push(
        store.exchanges.insert(
          inboundRow({
            body,
            size: body.length,
            path: `/platform/pay/${form}`,
            query: `token=${form}&plain=1`,
            headers: [
              ['content-type', 'application/json'],
              ['x-server-authorization', form],
              ['x-api-key', API_KEY],
            ],
          }),
        ).id,
      );
    });
    // A body that is not UTF-8 (it goes as base64), and a replay of the first capture (its derived id).
    const bytes = Buffer.from([0xff, 0xfe, ...Buffer.from(SECRET), 0x80]);
    ids.push(store.exchanges.insert(inboundRow({ body: bytes, size: bytes.length })).id);
    ids.push(store.exchanges.insert(inboundRow({ direction: 'outbound', origin: 'replay', sourceId: ids[0]! })).id);
  })();
  const found = await sqliteLog(store).detailRows(ids);
  await store.closeReaders();
  store.close();
  expect(found.rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(ids);
  expect(found.derived).toEqual([{ source_id: ids[0], id: ids.at(-1) }]);
  // Answers: one holding the secret in its headers and body, one with no answer at all.
  const rows = found.rows.map((r, i) =>
    i % 2 === 0
      ? {
          ...r,
          res_status: 302,
          res_headers: JSON.stringify([
            ['location', `/back?k=${FORMS[i % FORMS.length]!}`],
            ['x-echo', Buffer.from(SECRET).toString('hex')],
          ]),
          res_body: Buffer.from(`{"echo":"${FORMS[i % FORMS.length]!}"}`),
          completed_at: r.at,
        }
      : { ...r, res_status: null, res_headers: null, res_body: null, error: 'connect ECONNREFUSED', completed_at: r.at },
  );
  // Asked for in another order than read, and one that is not there: the HAR follows the ids.
  return { ids: [...ids].reverse().concat(999_999), found: { rows, derived: found.derived } };
}

/** This process's threads (the main one is the one whose id is the pid) and their nice values. */
function threads(): Array<{ main: boolean; nice: number }> {
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      // After "pid (name) ": state is field 3, nice 19 (1-based, man 5 proc).
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return [{ main: Number(tid) === process.pid, nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) }];
    } catch {
      return []; // the thread ended while listed
    }
  });
}

/** One exchange of the slice, alone. */
const only = (s: ReadSlice, id: number): HarSlice => ({
  ids: [id],
  found: { rows: s.found.rows.filter((r) => r.id === id), derived: s.found.derived.filter((d) => d.source_id === id) },
});

describe('the export thread', () => {
  it('builds the entries byte for byte as the proxy thread did, secrets redacted the same way', async () => {
    const s = await slice();
    const secrets = [SECRET, API_KEY];
    const thread = HarThread.create()!;
    try {
      // The whole HAR as JSON.stringify lays it out, the way the desk wrote it before the thread.
      const whole = `${JSON.stringify(
        harWith(
          toDetails(s.ids, s.found).map((x) => harEntry(x, secrets)),
          'c',
        ),
        null,
        2,
      )}\n`;
      expect(await harText(s.ids, async () => s.found, secrets, 'c', thread.build)).toBe(whole);
      const here = await harEntriesHere(s, secrets);
      expect(await thread.build(s, secrets)).toBe(here);
      // One entry at a time and all at once: the groups' seams are where the entries' separators are.
      expect((await Promise.all(s.ids.slice(0, -1).map((id) => thread.build(only(s, id), secrets)))).join(',\n')).toBe(here);
      expect(await thread.build({ ids: [], found: { rows: [], derived: [] } }, secrets)).toBe('');
      // What the redaction owes (headers, path and query): no header value, URL or query holds the secret.
      const entries = JSON.parse(`[${here}]`) as Array<{ request: { url: string; headers: Array<{ value: string }>; queryString: Array<{ value: string }> } }>;
      for (const e of entries) {
        expect(e.request.url).not.toContain(SECRET);
        for (const h of [...e.request.headers, ...e.request.queryString]) for (const form of FORMS) expect(h.value).not.toContain(form);
      }
    } finally {
      await thread.close();
    }
  });

  // Linux only: there a thread's nice is its own; elsewhere the call would set the whole process's.
  it.runIf(process.platform === 'linux')('builds at a lower priority than the thread that answers callbacks', async () => {
    const s = await slice();
    const niced = (): number => threads().filter((t) => t.nice === EXPORT_THREAD_NICE).length;
    const before = niced();
    const thread = HarThread.create()!;
    try {
      await thread.build(s, [SECRET]);
      expect(niced()).toBe(before + 1);
      expect(threads().find((t) => t.main)!.nice).not.toBe(EXPORT_THREAD_NICE);
    } finally {
      await thread.close();
    }
    expect(niced()).toBe(before);
  });

  it('ends with its owner: a job under way fails, a later one too, and no thread is left', async () => {
    const s = await slice();
    const thread = HarThread.create()!;
    expect(thread.running()).toBe(false);
    await thread.build(s, [SECRET]);
    expect(thread.running()).toBe(true);
    const underWay = expect(thread.build(s, [SECRET])).rejects.toBeInstanceOf(HarThreadEnded);
    await thread.close();
    await underWay;
    await expect(thread.build(s, [SECRET])).rejects.toBeInstanceOf(HarThreadEnded);
    expect(thread.running()).toBe(false);
  });

  // A package may hold the thread's file where a worker cannot load it (an archive its loader does not
  // read): the export is built in place, the same text, and the thread is not tried again.
  it('builds in place, the same text, where its code is found but cannot start', async () => {
    const s = await slice();
    const here = await harEntriesHere(s, [SECRET]);
    const dir = tempDir();
    const throwing = join(dir, 'export-thread.js');
    writeFileSync(throwing, "throw new Error('not loadable here');\n");
    for (const script of [
      { source: throwing, eval: false as const },
      { source: join(dir, 'missing.js'), eval: false as const },
      { source: "throw new Error('not loadable here')", eval: true as const, workerData: {} },
    ]) {
      const thread = HarThread.create(script)!;
      try {
        expect(await thread.build(s, [SECRET])).toBe(here);
        expect(thread.buildsInPlace()).toBe(true);
        expect(await thread.build(only(s, s.ids[0]!), [SECRET])).toBe(await harEntriesHere(only(s, s.ids[0]!), [SECRET]));
        expect(thread.running()).toBe(false);
      } finally {
        await thread.close();
      }
    }
    // A thread that has answered and then ends is not mistaken for one that cannot start.
    const thread = HarThread.create()!;
    await thread.build(s, [SECRET]);
    await thread.close();
    expect(thread.buildsInPlace()).toBe(false);
    await expect(thread.build(s, [SECRET])).rejects.toBeInstanceOf(HarThreadEnded);
  });
});
