// Forward mode: the record of a relayed answer is committed before the caller holds the whole answer.
// Whatever happens to `serve` after a caller has its answer (a SIGKILL, a power cut), the row already
// says what the caller was told. Checked from outside, as a crash would: a separate reader of the
// database looks for the answer's record the moment each answer arrives, under concurrent load.
import http from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../src-main/core/store/sqlite';
import { closeAfterTest } from '../helpers/closing';
import { startRecorder } from '../helpers/servers';
import { tempDir } from '../helpers/temp';
import { send } from '../integration/proxy/helpers';
import { startServe } from '../integration/proxy/serve-process';

const CONCURRENCY = 24;
const REQUESTS = 600;

describe('a relayed answer is recorded before the caller has it', () => {
  it('under concurrent load, every answer a caller holds already has its response record', { timeout: 120_000 }, async () => {
    const upstream = await startRecorder((_req, body, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ status: 'ok', echoed: body.length }));
    });
    closeAfterTest(upstream);
    const home = tempDir();
    const serve = await startServe(['--home', home, 'serve', '--no-ui', '--proxy-port', '0', '--upstream', upstream.url]);
    const db = new Database(join(home, DATABASE_FILE), { readonly: true });
    closeAfterTest(db);
    const statusOf = db.prepare('SELECT res_status FROM exchanges WHERE deposit_id = ?').pluck();
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    closeAfterTest({ close: () => agent.destroy() });
    const unrecorded: string[] = [];
    let next = 0;
    const loop = async (): Promise<void> => {
      while (next < REQUESTS) {
        const depositId = `fwd-${next++}`;
        const body = JSON.stringify({ userId: 'u-1', depositId, currency: 'USD', amount: 1 });
        const reply = await send(serve.url, { body, agent, headers: { 'content-type': 'application/json' } });
        expect(reply.status).toBe(200);
        // Read at once, before anything else runs in this process.
        if (statusOf.get(depositId) !== 200) unrecorded.push(depositId);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, loop));
    expect(unrecorded).toEqual([]);
    expect((await serve.stop('SIGTERM')).code).toBe(0);
  });
});
