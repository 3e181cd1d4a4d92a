// Retention: prune by age and by count, replays whose source is pruned keep their own row (the link is
// cleared by the foreign key, nothing dangles), the file shrinks with --vacuum and later prunes stay
// compact, a prune beside a capturing proxy drops no capture, and the CLI's contract (flags, --json,
// exit 2 with one line).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Desk } from '../../src-main/core/desk';
import { DATABASE_FILE } from '../../src-main/core/store/sqlite';
import { runCli } from '../helpers/cli';
import { logOf, openDesk, sqliteOf } from '../helpers/desk';
import { inboundRow } from '../helpers/exchanges';
import { tempDir } from '../helpers/temp';
import { send, startProxy } from '../integration/proxy/helpers';
import { exchangeOf } from '../helpers/log-reads';

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date('2031-06-15T12:00:00.000Z');

/** Inserts `count` rows, the i-th `ageDays(i)` days old; returns their ids in insertion order. */
function fill(
  desk: Desk,
  count: number,
  ageDays: (i: number) => number,
  bodyBytes = 64,
  sourceOf: (i: number, ids: number[]) => number | null = () => null,
  now = NOW,
): Promise<number[]> {
  return logOf(desk).write((rows) => {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const at = new Date(now.getTime() - ageDays(i) * DAY).toISOString();
      ids.push(rows.record(inboundRow({ at, body: Buffer.alloc(bodyBytes, 0x61 + (i % 26)), sourceId: sourceOf(i, ids) })));
    }
    return ids;
  }, count);
}

function ids(desk: Desk): number[] {
  return sqliteOf(desk).prepare('SELECT id FROM exchanges ORDER BY id').pluck().all() as number[];
}

describe('retention (core)', () => {
  it('deletes by age, keeps replays of pruned sources with their link cleared, and leaves a sound database', async () => {
    const desk = openDesk();
    try {
      // 40 captures from 39 days old down to today; then 5 replays made today of the 5 oldest captures.
      const captures = await fill(desk, 40, (i) => 39 - i);
      const replays = await fill(
        desk,
        5,
        () => 0,
        64,
        (i) => captures[i]!,
      );
      expect((await exchangeOf(desk, captures[0]!)).derivedIds).toEqual([replays[0]]);

      const report = await logOf(desk).prune({ olderThanDays: 30, now: NOW });
      // Ages 39..31 are older than 30 days: the first 9 captures; an age of exactly 30 days stays.
      expect(report.deleted).toBe(9);
      expect(report.remaining).toBe(36);
      expect(report.detached).toBe(5);
      expect(report.cutoff).toBe(new Date(NOW.getTime() - 30 * DAY).toISOString());
      expect(ids(desk)).toEqual([...captures.slice(9), ...replays]);
      for (const id of replays) expect((await exchangeOf(desk, id)).sourceId).toBeNull();
      expect(sqliteOf(desk).pragma('foreign_key_check')).toEqual([]);
      expect(sqliteOf(desk).pragma('integrity_check', { simple: true })).toBe('ok');
      // Nothing more is old enough: a second run deletes nothing.
      expect((await logOf(desk).prune({ olderThanDays: 30, now: NOW })).deleted).toBe(0);
    } finally {
      await desk.close();
    }
  });

  it("keeps the log's counts right: a prune through the desk is seen by its status at once", async () => {
    const desk = openDesk();
    await fill(desk, 12, (i) => 12 - i);
    const before = await desk.getStatus();
    expect(before.ok && before.value.counts).toEqual({ inbound: 12, outbound: 0 });
    const pruned = await desk.prune({ keep: 5 });
    expect(pruned.ok && pruned.value).toMatchObject({ deleted: 7, remaining: 5 });
    // The newest row is still there (the highest id did not move): the running count must still drop.
    const after = await desk.getStatus();
    expect(after.ok && after.value.counts).toEqual({ inbound: 5, outbound: 0 });
  });

  it('deletes in short batches: a failure part-way leaves whole batches deleted and says how many', async () => {
    const desk = openDesk();
    const all = await fill(desk, 1200, (i) => 1200 - i);
    // A real SQLite failure on the 1100th row deleted (in id order), as a full disk would fail a write
    // that comes late: the batches before it are deleted for good, the failing one not at all. Batches are
    // sized by time (at most 500 rows), so how many went before it depends on the machine: the report says.
    sqliteOf(desk).exec(
      `CREATE TEMP TRIGGER fail_late BEFORE DELETE ON exchanges WHEN old.id = ${all[1099]} BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`,
    );
    const failed = await desk.prune({ keep: 10 });
    expect(failed).toMatchObject({ ok: false, error: { message: expect.stringContaining('disk is full') } });
    const said = /(\d+) exchanges were deleted before this, in whole batches/.exec(failed.ok ? '' : failed.error.message);
    expect(said, failed.ok ? '' : failed.error.message).not.toBeNull();
    const deletedBefore = Number(said![1]);
    expect(deletedBefore).toBeGreaterThan(0);
    expect(deletedBefore).toBeLessThan(1100);
    expect(ids(desk)).toEqual(all.slice(deletedBefore));
    const status = await desk.getStatus();
    expect(status.ok && status.value.counts).toEqual({ inbound: 1200 - deletedBefore, outbound: 0 });
    sqliteOf(desk).exec('DROP TRIGGER fail_late');
    const done = await desk.prune({ keep: 10 });
    expect(done.ok && done.value.deleted).toBe(1200 - deletedBefore - 10);
  });

  it('keeps the newest N by record order, and with both limits a row goes when either says so', async () => {
    const desk = openDesk();
    try {
      // Recorded in order, but with ages that do not follow it (a HAR import brings old rows late).
      const all = await fill(desk, 30, (i) => (i % 2 === 0 ? 100 : 1));
      const kept = await logOf(desk).prune({ keep: 20, now: NOW });
      expect(kept.deleted).toBe(10);
      expect(ids(desk)).toEqual(all.slice(10));

      const both = await logOf(desk).prune({ keep: 15, olderThanDays: 50, now: NOW });
      // Of the 20 left: the oldest 5 go by count; of the newest 15, the even ones (100 days old) go by age.
      const expected = all.slice(15).filter((_, j) => (15 + j) % 2 === 1);
      expect(ids(desk)).toEqual(expected);
      expect(both.deleted).toBe(20 - expected.length);
      expect((await logOf(desk).prune({ keep: 0 })).remaining).toBe(0);
      expect((await logOf(desk).prune({ keep: 10 })).deleted).toBe(0);
    } finally {
      await desk.close();
    }
  });

  it('refuses a negative age and a fractional count', async () => {
    const desk = openDesk();
    try {
      await expect(logOf(desk).prune({ olderThanDays: -1 })).rejects.toThrow(/days of 0 or more/);
      await expect(logOf(desk).prune({ keep: 1.5 })).rejects.toThrow(/whole number/);
    } finally {
      await desk.close();
    }
  });

  it('--vacuum gives the space back to the disk, and later prunes stay compact on their own', async () => {
    const home = tempDir();
    const desk = openDesk(home);
    const file = join(home, DATABASE_FILE);
    try {
      await fill(desk, 600, (i) => 600 - i, 8 * 1024);
      const plain = await logOf(desk).prune({ keep: 100 });
      expect(plain.deleted).toBe(500);
      // Without a vacuum the pages stay in the file, free for new rows; the WAL is cut to nothing.
      expect(plain.freePages).toBeGreaterThan(500);
      expect(plain.walTruncated).toBe(true);
      const sizeBefore = statSync(file).size;
      expect(sizeBefore).toBeGreaterThan(600 * 8 * 1024 * 0.9);

      const vacuumed = await logOf(desk).prune({ vacuum: true });
      expect(vacuumed).toMatchObject({ deleted: 0, remaining: 100, vacuumed: true, freePages: 0, walTruncated: true });
      expect(statSync(file).size).toBeLessThan(sizeBefore / 3);
      expect(sqliteOf(desk).pragma('auto_vacuum', { simple: true })).toBe(2);

      const sizeAfterVacuum = statSync(file).size;
      const later = await logOf(desk).prune({ keep: 20 });
      expect(later).toMatchObject({ deleted: 80, freePages: 0, vacuumed: false });
      expect(statSync(file).size).toBeLessThan(sizeAfterVacuum / 2);
      expect(sqliteOf(desk).pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      await desk.close();
    }
  });
});

describe('wager-desk prune', () => {
  it('prunes beside a running proxy without dropping a capture', { timeout: 30_000 }, async () => {
    const home = tempDir();
    const desk = openDesk(home);
    try {
      await fill(desk, 3000, (i) => 3000 - i, 2048);
      const { url } = await startProxy(desk);
      const pruning = runCli(['--home', home, 'prune', '--keep', '10', '--json']);
      let answered = 0;
      let done = false;
      void pruning.then(() => (done = true));
      // Capture sequentially until the prune has finished (and at least 20 times).
      while (!done || answered < 20) {
        const reply = await send(url, { body: JSON.stringify({ userId: 'u', depositId: `during-${answered}`, currency: 'USD', amount: 1 }) });
        expect(reply.status).toBe(200);
        answered++;
      }
      const result = await pruning;
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout) as { deleted: number; remaining: number };
      expect(report.deleted).toBeGreaterThanOrEqual(3000 - 10);
      // Every row is accounted for: deleted by the prune, or still here. No answered capture went missing.
      expect(report.deleted + ids(desk).length).toBe(3000 + answered);
      // The captures that remain are the newest ones, without a gap: the prune cut only below its start.
      const serials = (sqliteOf(desk).prepare("SELECT deposit_id FROM exchanges WHERE deposit_id LIKE 'during-%' ORDER BY id").pluck().all() as string[]).map(
        (d) => Number(d.slice('during-'.length)),
      );
      expect(serials.length).toBeGreaterThanOrEqual(Math.min(answered, 10));
      expect(serials).toEqual(Array.from({ length: serials.length }, (_, k) => answered - serials.length + k));
      expect(sqliteOf(desk).pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      await desk.close();
    }
  });

  it('prints a summary, or --json; refuses a call with nothing to do, and bad values, on one line with exit 2', async () => {
    const home = tempDir();
    const desk = openDesk(home);
    // Ages 12..1 days before the real clock: the CLI prunes against the time it runs.
    await fill(
      desk,
      12,
      (i) => 12 - i,
      64,
      () => null,
      new Date(),
    );
    await desk.close();

    const text = await runCli(['--home', home, 'prune', '--older-than', '5.5']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^pruned 7 exchanges \(5 left\)\ndatabase: .* -> .*\n/);

    const json = await runCli(['--home', home, 'prune', '--keep', '2', '--vacuum', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ deleted: 3, remaining: 2, detached: 0, cutoff: null, vacuumed: true, walTruncated: true, freePages: 0 });

    for (const args of [[], ['--keep', '-1'], ['--keep', 'x'], ['--older-than', '-2'], ['--older-than', '']]) {
      const bad = await runCli(['--home', home, 'prune', ...args]);
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stdout, args.join(' ')).toBe('');
      expect(bad.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    const after = openDesk(home);
    try {
      expect(ids(after)).toHaveLength(2);
    } finally {
      await after.close();
    }
  });
});
