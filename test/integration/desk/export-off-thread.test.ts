// A HAR export holds the proxy's event loop for a small part of what it held when the loop built it: the
// details are read a slice at a time (one read of the store for many) and their text is built on the
// export thread. The loop's busy time (event-loop utilization) during the desk's export is compared with
// the same export read one exchange at a time and built on the loop, as the desk did before; the same
// text comes out of both.
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import { featureDepsOf, logOf } from '../../../src-main/core/desk/seams';
import { setImmediate as turn } from 'node:timers/promises';
import { harEntry, harWith } from '../../../src-main/core/export/har-build';
import { selectForHar } from '../../../src-main/core/export/har-select';
import { storedSecrets } from '../../../src-main/core/redact';
import { fillForSlowSearch } from '../../helpers/slow-search-log';
import { must } from '../../helpers/must';
import { tempDirForSuite } from '../../helpers/temp';

const ROWS = 2_000;

let home: { dir: string; remove(): void };
let desk: Desk;

beforeAll(() => {
  home = tempDirForSuite('wager-desk-export-thread-');
  desk = createDesk({ home: home.dir });
  fillForSlowSearch(desk, ROWS, 2_000);
});

afterAll(async () => {
  await desk?.close();
  home?.remove();
});

/** The loop's busy milliseconds while `fn` runs, and what it answered. */
async function busyWhile<T>(fn: () => Promise<T>): Promise<{ busyMs: number; value: T }> {
  const before = performance.eventLoopUtilization();
  const value = await fn();
  return { busyMs: performance.eventLoopUtilization(before).active, value };
}

/** The export as the desk made it before: one read per exchange, every entry built on the loop, one a turn. */
async function onTheLoop(): Promise<string> {
  const ctx = featureDepsOf(desk);
  const log = logOf(desk);
  const secrets = storedSecrets(ctx);
  const selection = await selectForHar(log, { limit: ROWS });
  const indent = '      ';
  const parts: string[] = [];
  for (let from = 0; from < selection.ids.length; from += 50) {
    const details = await Promise.all(selection.ids.slice(from, from + 50).map((id) => log.get(id)));
    for (const x of details) {
      if (x === null) continue;
      parts.push(indent + JSON.stringify(harEntry(x, secrets), null, 2).replaceAll('\n', `\n${indent}`));
      await turn();
    }
  }
  const frame = JSON.stringify(harWith([], `Exported by Wager Desk: ${selection.description}.`), null, 2);
  const at = frame.indexOf('"entries": []') + '"entries": ['.length;
  return `${frame.slice(0, at)}\n${parts.join(',\n')}\n    ${frame.slice(at)}\n`;
}

describe('a HAR export beside the proxy', () => {
  it('holds the event loop for a small part of the time building it there held it, and gives the same text', async () => {
    // Started once, as a desk's first export starts it.
    must(await desk.exportHar({ limit: 10 }));
    let desks = 0;
    let loops = 0;
    // Alternated, so that a slower moment of the machine falls on both.
    for (let round = 0; round < 3; round++) {
      const off = await busyWhile(async () => must(await desk.exportHar({ limit: ROWS })));
      const on = await busyWhile(onTheLoop);
      expect(off.value).toBe(on.value);
      desks += off.busyMs;
      loops += on.busyMs;
    }
    console.log('RATIO', desks, loops, desks / loops);
    expect(desks / loops).toBeLessThan(0.5);
  }, 120_000);
});
