// The proxy's group commit facing a write lock held by another connection (a prune's batch, a CLI
// write): it waits on a timer, never in SQLite's busy handler, so the event loop keeps serving; it
// commits once the lock is free, answers nothing without its row, and gives up after its bound with
// an error that names the database file.
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import type { GroupCommit } from '../../../src-main/core/store/sqlite/group-commit';
import { bareGroupCommit } from '../../helpers/group-commit';
import { openDatabase } from '../../../src-main/core/store/sqlite';
import { BUSY_TIMEOUT_MS } from '../../../src-main/core/store/sqlite/open';
import { closeAfterTest } from '../../helpers/closing';
import { openDesk, sqliteOf } from '../../helpers/desk';
import { holdWriteLock } from '../../helpers/lock-holder';
import { send, startProxy } from './helpers';
import { exchangesOf } from '../../helpers/log-reads';

/** How late a timer of `ms` fires: the time the event loop could not run. */
/**
 * How late a timer fires while the write waits. A thread held in SQLite's busy handler would fire it a whole
 * busy timeout late (5 s); a free event loop fires it at once, however loaded the machine. The bound is
 * that busy timeout, not a number of ms a loaded machine can break.
 */
async function timerLateness(ms: number): Promise<number> {
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return performance.now() - started - ms;
}

function written(commits: GroupCommit, write: () => unknown): Promise<unknown> {
  return new Promise((resolve) => commits.write(write, (err) => resolve(err)));
}

describe('group commit against another connection holding the write lock', () => {
  it('waits on a timer with the event loop free, then commits the batch, joined meanwhile, once the lock is released', async () => {
    const db = sqliteOf(openDesk());
    db.exec('CREATE TABLE t (v INTEGER NOT NULL)');
    const other = closeAfterTest(openDatabase(db.name));
    other.exec('BEGIN IMMEDIATE');
    const commits = bareGroupCommit(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    let settled = 0;
    const first = written(commits, () => insert.run(1)).finally(() => settled++);
    // In SQLite's busy handler this thread would sleep for the whole busy timeout (5 s), and the other
    // connection, on the same thread, could never let go: the write would fail as "database is locked".
    expect(await timerLateness(50)).toBeLessThan(BUSY_TIMEOUT_MS);
    expect(settled).toBe(0);
    expect(db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(0);
    const second = written(commits, () => insert.run(2)).finally(() => settled++);
    other.exec('COMMIT');
    expect(await first).toBeNull();
    expect(await second).toBeNull();
    expect(db.prepare('SELECT v FROM t ORDER BY v').pluck().all()).toEqual([1, 2]);
    // The connection's own busy timeout is untouched: the desk's other writers still wait out a lock.
    expect(db.pragma('busy_timeout', { simple: true })).toBe(BUSY_TIMEOUT_MS);
    commits.close();
  });

  it('gives up after its bound with an error naming the database file, and writes again once the lock is free', async () => {
    const db = sqliteOf(openDesk());
    db.exec('CREATE TABLE t (v INTEGER NOT NULL)');
    const other = closeAfterTest(openDatabase(db.name));
    other.exec('BEGIN IMMEDIATE');
    const commits = bareGroupCommit(db, { lockWaitMs: 30 });
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const failed = await written(commits, () => insert.run(1));
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toContain(db.name);
    expect((failed as Error).message).toMatch(/stayed locked by another process for \d+ ms/);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(BUSY_TIMEOUT_MS);
    other.exec('ROLLBACK');
    expect(await written(commits, () => insert.run(2))).toBeNull();
    expect(db.prepare('SELECT v FROM t').pluck().all()).toEqual([2]);
    commits.close();
  });

  it('a write that must go out now commits before returning when the lock is free, and joins the group, the loop free, when it is not', async () => {
    const db = sqliteOf(openDesk());
    db.exec('CREATE TABLE t (v INTEGER NOT NULL)');
    const commits = bareGroupCommit(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    let outcome: unknown = 'not yet';
    commits.writeNow(
      () => insert.run(1),
      (err) => (outcome = err),
    );
    expect(outcome).toBeNull();

    const other = closeAfterTest(openDatabase(db.name));
    other.exec('BEGIN IMMEDIATE');
    outcome = 'not yet';
    const later = new Promise<unknown>((resolve) =>
      commits.writeNow(
        () => insert.run(2),
        (err) => resolve((outcome = err)),
      ),
    );
    // Not in SQLite's busy handler: the loop keeps its timers, and the write waits for the lock.
    expect(await timerLateness(50)).toBeLessThan(BUSY_TIMEOUT_MS);
    expect(outcome).toBe('not yet');
    other.exec('COMMIT');
    expect(await later).toBeNull();
    expect(db.prepare('SELECT v FROM t ORDER BY v').pluck().all()).toEqual([1, 2]);
    await commits.close();
  });

  it('close commits what is queued, waiting out the lock as the busy timeout allows', async () => {
    const db = sqliteOf(openDesk());
    db.exec('CREATE TABLE t (v INTEGER NOT NULL)');
    const commits = bareGroupCommit(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const queued = written(commits, () => insert.run(1));
    commits.close();
    expect(await queued).toBeNull();
    expect(db.prepare('SELECT v FROM t').pluck().all()).toEqual([1]);
  });
});

describe('the proxy while another process holds the write lock', () => {
  it('keeps its event loop free, and answers a capture only once its row is committed', { timeout: 30_000 }, async () => {
    const desk = openDesk();
    const { url } = await startProxy(desk);
    const holder = await holdWriteLock(sqliteOf(desk).name);
    let answeredAt = 0;
    const reply = send(url, { body: JSON.stringify({ userId: 'u-1', depositId: 'held-1', currency: 'USD', amount: 1 }) }).finally(
      () => (answeredAt = performance.now()),
    );
    expect(await timerLateness(300)).toBeLessThan(BUSY_TIMEOUT_MS);
    expect(answeredAt).toBe(0);
    const releasedAt = performance.now();
    await holder.release();
    expect((await reply).status).toBe(200);
    expect(answeredAt).toBeGreaterThan(releasedAt);
    expect(await exchangesOf(desk, { depositId: 'held-1' })).toHaveLength(1);
  });
});
