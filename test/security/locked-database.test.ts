// Writers from other processes wait out the write lock (busy_timeout) and, when they cannot, say which
// file is locked and what to do, instead of a bare "database is locked". The other process here holds
// the lock the way a loaded `serve` or a prune does: BEGIN IMMEDIATE on the same database file.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../src-main/core/desk';
import { DATABASE_FILE } from '../../src-main/core/store/sqlite';
import { sqliteLog } from '../../src-main/core/store/sqlite/log';
import { closeAfterTest } from '../helpers/closing';
import { storeOf } from '../helpers/desk';
import { inboundRow } from '../helpers/exchanges';
import { tempDir } from '../helpers/temp';

/**
 * Another process that takes the write lock and holds it until its stdin closes, or for `holdMs`.
 * Resolves once the lock is held.
 */
async function lockHolder(file: string, holdMs: number | null): Promise<ChildProcessWithoutNullStreams> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.exec('BEGIN IMMEDIATE');
    db.exec("CREATE TABLE IF NOT EXISTS lock_holder (x)");
    process.stdout.write('locked\\n');
    const release = () => { db.exec('COMMIT'); db.close(); process.exit(0); };
    const hold = Number(process.argv[2]);
    if (hold > 0) setTimeout(release, hold);
    process.stdin.on('end', release);
    process.stdin.resume();
  `;
  const child = spawn(process.execPath, ['-e', script, file, String(holdMs ?? 0)], { cwd: process.cwd() });
  closeAfterTest({ close: () => void child.kill('SIGKILL') });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
    child.once('exit', (code) => reject(new Error(`the lock holder exited (${code})`)));
  });
  return child;
}

describe('a database locked by another process', () => {
  it('a write waits out a short lock and succeeds', { timeout: 30_000 }, async () => {
    const home = tempDir();
    const desk = closeAfterTest(createDesk({ home }));
    expect((await desk.saveProfile({ name: 'p', secret: 'locked-db-secret-1' })).ok).toBe(true);
    await lockHolder(join(home, DATABASE_FILE), 700);
    const saved = await desk.saveProfile({ name: 'p', secret: 'locked-db-secret-2' });
    expect(saved.ok, saved.ok ? '' : saved.error.message).toBe(true);
  });

  it("a log write that reads before it writes (an answer's findings added to its row) waits out the lock too", { timeout: 30_000 }, async () => {
    const home = tempDir();
    const desk = closeAfterTest(createDesk({ home }));
    const store = storeOf(desk);
    const { id } = store.exchanges.insert(inboundRow());
    // The other process writes inside its lock and commits it 400 ms later: a transaction that read
    // before that commit and then asks to write can only fail, so the write must take the lock first.
    await lockHolder(join(home, DATABASE_FILE), 400);
    const finding = { level: 'warning', message: 'an added note', path: 'echo' } as const;
    await sqliteLog(store).write((rows) => rows.addFindings(id, [finding]));
    expect(JSON.stringify(store.exchanges.get(id)?.findings)).toContain('an added note');
  });

  it('a lock held past the wait: one message naming the database file and what to do, nothing changed', { timeout: 30_000 }, async () => {
    const home = tempDir();
    const file = join(home, DATABASE_FILE);
    const desk = closeAfterTest(createDesk({ home }));
    expect((await desk.saveProfile({ name: 'p', secret: 'locked-db-secret-1', operatorId: 'before' })).ok).toBe(true);
    const holder = await lockHolder(file, null);
    const saved = await desk.saveProfile({ name: 'p', operatorId: 'after' });
    holder.stdin.end();
    expect(saved.ok).toBe(false);
    const message = saved.ok ? '' : saved.error.message;
    expect(message).toContain(file);
    expect(message).toMatch(/stayed locked by another process for more than 5 s/);
    expect(message).toMatch(/try again, or stop the other process/);
    const listed = await desk.listProfiles();
    expect(listed.ok && listed.value.find((p) => p.name === 'p')?.operatorId).toBe('before');
  });
});
