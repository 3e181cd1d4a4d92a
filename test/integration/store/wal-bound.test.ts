// The write-ahead log kept short between a prune's batches: past its bound, the log is copied back,
// flushed, and made to start over, so the next writer (any connection) writes it from the beginning
// instead of making it longer.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/core/store/sqlite';
import { WalBound } from '../../../src-main/core/store/sqlite/wal-bound';
import { closeAfterTest } from '../../helpers/closing';
import { openDesk, sqliteOf } from '../../helpers/desk';

const framesIn = (db: ReturnType<typeof sqliteOf>): number => (db.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>)[0]!.log;

describe('the WAL bound', () => {
  it('starts the log over once past its bound, though another connection wrote since', async () => {
    const db = sqliteOf(openDesk());
    // As beside a proxy: nobody checkpoints on commit.
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE big (b BLOB NOT NULL)');
    const fill = db.prepare('INSERT INTO big (b) VALUES (randomblob(8192))');
    db.transaction(() => {
      for (let i = 0; i < 100; i++) fill.run();
    })();
    const other = closeAfterTest(openDatabase(db.name));
    other.pragma('wal_autocheckpoint = 0');
    const write = other.prepare('INSERT INTO big (b) VALUES (randomblob(100))');
    write.run();
    expect(framesIn(db)).toBeGreaterThan(200);

    const bound = new WalBound(db, 50);
    expect(await bound.step()).toMatchObject({ frames: 0 });
    write.run();
    // The other connection's write started the log over: it holds that write's frames only.
    expect(framesIn(db)).toBeLessThan(10);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('below its bound only copies the log back, without taking the write lock', async () => {
    const db = sqliteOf(openDesk());
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE small (n INTEGER)');
    db.prepare('INSERT INTO small (n) VALUES (1)').run();
    const other = closeAfterTest(openDatabase(db.name));
    other.exec('BEGIN IMMEDIATE');
    const step = await new WalBound(db, 10_000).step();
    other.exec('COMMIT');
    expect(step.lockMs).toBe(0);
    expect(step.frames).toBeGreaterThan(0);
  });
});
