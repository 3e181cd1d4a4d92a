// Nothing acknowledged is lost to a SIGKILL: a child process runs `serve` under concurrent load and is
// killed at a random moment, round after round on the same data directory. Afterwards every request
// that got a response has its row, and SQLite's integrity check passes.
import http from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../../src-main/core/store/sqlite';
import { tempDir } from '../../helpers/temp';
import { send } from './helpers';
import { closeAfterTest } from '../../helpers/closing';
import { startRecorder } from '../../helpers/servers';
import { startServe } from './serve-process';

const ROUNDS = 10;
const CONCURRENCY = 8;

describe('durability', () => {
  it(`every answered request survives a SIGKILL (${ROUNDS} rounds, sandbox and forward mode)`, { timeout: 60_000 }, async () => {
    const home = tempDir();
    const upstream = closeAfterTest(await startRecorder((_req, _body, res) => res.end('{"status":"ok"}')));
    const acknowledged: string[] = [];

    for (let round = 0; round < ROUNDS; round++) {
      const forward = round % 2 === 1;
      const serve = await startServe(['--home', home, 'serve', '--no-ui', '--proxy-port', '0', ...(forward ? ['--upstream', upstream.url] : [])]);
      const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
      // Kill after a random number of answers: a random moment, but one reached by progress, not by a timer.
      const killAfter = 1 + Math.floor(Math.random() * 120);
      let answered = 0;
      let killed = false;
      let serial = 0;
      const loop = async (): Promise<void> => {
        while (!killed) {
          const depositId = `kill-${round}-${serial++}`;
          const body = JSON.stringify({ userId: `user-${serial % 50}`, depositId, currency: 'USD', amount: 1 });
          let status: number;
          try {
            status = (await send(serve.url, { body, agent, headers: { 'content-type': 'application/json' } })).status;
          } catch {
            return; // the connection died with the process: no answer, no promise made
          }
          // Outside the try: a wrong answer must fail the test, not end the loop quietly.
          expect(status).toBe(200);
          acknowledged.push(depositId);
          if (++answered === killAfter && !killed) {
            killed = true;
            serve.child.kill('SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, loop));
      agent.destroy();
      const exit = await serve.stop('SIGKILL');
      expect(exit.signal).toBe('SIGKILL');
      expect(answered).toBeGreaterThanOrEqual(killAfter);
    }

    const db = new Database(join(home, DATABASE_FILE));
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const stored = new Set(db.prepare("SELECT deposit_id FROM exchanges WHERE direction = 'inbound'").pluck().all() as string[]);
      const lost = acknowledged.filter((d) => !stored.has(d));
      expect(lost).toEqual([]);
      expect(acknowledged.length).toBeGreaterThanOrEqual(ROUNDS);
    } finally {
      db.close();
    }
  });
});
