// Promise 1, the part test/integration/proxy/durability.test.ts leaves out. That test kills `serve` under
// load many times and proves every answered request is in the database and integrity_check is ok. Here:
// the app starts cleanly afterwards. The same data directory, never tidied after the kill (its WAL and
// shm left as the killed process left them), is opened again by `serve`, which captures and stops
// cleanly, by the read commands, and by a prune; and a prune killed mid-way leaves a sound database too.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../src-main/core/desk';
import { DATABASE_FILE } from '../../src-main/core/store/sqlite';
import { cliCommand, runCli } from '../helpers/cli';
import { inboundRow } from '../helpers/exchanges';
import { closeAfterTest } from '../helpers/closing';
import { startRecorder } from '../helpers/servers';
import { tempDir } from '../helpers/temp';
import { send } from '../integration/proxy/helpers';
import { startServe } from '../integration/proxy/serve-process';
import { sqliteOf, storeOf } from '../helpers/desk';

const CONCURRENCY = 6;
const pay = (depositId: string) => JSON.stringify({ userId: 'u-1', depositId, currency: 'USD', amount: 1 });

/** Runs `serve` under concurrent load and SIGKILLs it after a random number of answers; returns the answered ids. */
async function killUnderLoad(home: string, round: number, extra: string[] = []): Promise<string[]> {
  const serve = await startServe(['--home', home, 'serve', '--no-ui', '--proxy-port', '0', ...extra]);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const killAfter = 10 + Math.floor(Math.random() * 60);
  const answered: string[] = [];
  let killed = false;
  let serial = 0;
  const loop = async (): Promise<void> => {
    while (!killed) {
      const depositId = `k${round}-${serial++}`;
      let status: number;
      try {
        status = (await send(serve.url, { body: pay(depositId), agent, headers: { 'content-type': 'application/json' } })).status;
      } catch {
        return; // the process died under this request: it was never answered
      }
      expect(status).toBe(200); // outside the try: a wrong answer fails the test

      answered.push(depositId);
      if (answered.length >= killAfter && !killed) {
        killed = true;
        serve.child.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  agent.destroy();
  expect((await serve.stop('SIGKILL')).signal).toBe('SIGKILL');
  return answered;
}

describe('after a SIGKILL the app starts cleanly', () => {
  it('serve, the read commands and prune reopen the killed data directory and go on capturing', { timeout: 60_000 }, async () => {
    const home = tempDir();
    const answered = [...(await killUnderLoad(home, 1)), ...(await killUnderLoad(home, 2))];
    // The kill left the write-ahead log behind: this is the state a restart meets.
    expect(existsSync(join(home, `${DATABASE_FILE}-wal`))).toBe(true);

    const serve = await startServe(['--home', home, 'serve', '--no-ui', '--proxy-port', '0']);
    expect(serve.stderr()).not.toMatch(/error|damaged|cannot/i);
    for (let i = 0; i < 5; i++) expect((await send(serve.url, { body: pay(`after-${i}`), headers: { 'content-type': 'application/json' } })).status).toBe(200);
    expect((await serve.stop('SIGTERM')).code).toBe(0);

    const listed = await runCli(['--home', home, 'captures', '--json', '--limit', '1000']);
    expect(listed.code, listed.stderr).toBe(0);
    const deposits = new Set((JSON.parse(listed.stdout) as Array<{ depositId: string }>).map((x) => x.depositId));
    expect(answered.filter((d) => !deposits.has(d))).toEqual([]);
    for (let i = 0; i < 5; i++) expect(deposits.has(`after-${i}`)).toBe(true);

    const shown = await runCli(['--home', home, 'show', String(answered.length + 5), '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    const pruned = await runCli(['--home', home, 'prune', '--keep', '1000', '--vacuum', '--json']);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(JSON.parse(pruned.stdout)).toMatchObject({ deleted: 0, vacuumed: true });

    const db = new Database(join(home, DATABASE_FILE), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('forwarding: every answer relayed before a SIGKILL has its response recorded', { timeout: 60_000 }, async () => {
    const upstream = await startRecorder((_req, body, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ status: 'ok', echoed: body.length }));
    });
    closeAfterTest(upstream);
    const home = tempDir();
    const answered: string[] = [];
    for (let round = 1; round <= 3; round++) answered.push(...(await killUnderLoad(home, round, ['--upstream', upstream.url])));
    const db = new Database(join(home, DATABASE_FILE), { readonly: true });
    try {
      const rows = new Map(
        (db.prepare('SELECT deposit_id, res_status FROM exchanges').all() as Array<{ deposit_id: string; res_status: number | null }>).map((r) => [
          r.deposit_id,
          r.res_status,
        ]),
      );
      expect(answered.filter((d) => !rows.has(d))).toEqual([]);
      // The answer's record is committed before the caller has the whole answer: none is missing.
      expect(answered.filter((d) => rows.get(d) !== 200)).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('a prune killed mid-way leaves a sound database that opens and captures', { timeout: 60_000 }, async () => {
    const home = tempDir();
    const desk = createDesk({ home });
    sqliteOf(desk).transaction(() => {
      for (let i = 0; i < 4000; i++)
        storeOf(desk).exchanges.insert(inboundRow({ body: Buffer.alloc(2048, 0x61 + (i % 26)), keys: { ...inboundRow().keys, depositId: `old-${i}` } }));
    })();
    await desk.close();

    for (let round = 0; round < 3; round++) {
      // The attack: a SIGKILL at a random moment of the prune's run (its deletes, its VACUUM, or after it
      // finished). The timer only decides when to strike; the test waits on the process's exit.
      const { cmd, args } = cliCommand();
      const child = spawn(cmd, [...args, '--home', home, 'prune', '--keep', String(3000 - round * 1000), '--vacuum'], { stdio: 'ignore' });
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
      const timer = setTimeout(() => child.kill('SIGKILL'), 150 + Math.floor(Math.random() * 600));
      await exited;
      clearTimeout(timer);

      const db = new Database(join(home, DATABASE_FILE));
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        // Whole batches only: every row left is one of the originals, the newest ones.
        const ids = db.prepare('SELECT id FROM exchanges ORDER BY id').pluck().all() as number[];
        expect(ids.length).toBeGreaterThanOrEqual(3000 - round * 1000);
        expect(ids.at(-1)).toBe(4000);
        expect(ids[ids.length - 1]! - ids[0]! + 1).toBe(ids.length);
      } finally {
        db.close();
      }
    }
    const serve = await startServe(['--home', home, 'serve', '--no-ui', '--proxy-port', '0']);
    expect((await send(serve.url, { body: pay('after-prune-kill'), headers: { 'content-type': 'application/json' } })).status).toBe(200);
    expect((await serve.stop('SIGTERM')).code).toBe(0);
  });
});
