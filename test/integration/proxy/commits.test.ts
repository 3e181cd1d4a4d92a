// The write path under the proxy: group commit (one transaction a turn, one bad write cannot sink its
// neighbours) and the checkpoint worker that takes WAL checkpoints off the event loop while it runs.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { bareGroupCommit } from '../../helpers/group-commit';
import { captures, send, startProxy } from './helpers';
import { openDesk, sqliteOf } from '../../helpers/desk';
import { exchangesOf } from '../../helpers/log-reads';

describe('group commit', () => {
  it('commits the writes of one turn together, and a failing write fails alone', async () => {
    const desk = openDesk();
    const db = sqliteOf(desk);
    db.exec('CREATE TABLE t (v INTEGER NOT NULL)');
    const commits = bareGroupCommit(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const outcomes = await Promise.all(
      [1, 2, null, 4].map(
        (v) =>
          new Promise<string>((resolve) =>
            commits.write(
              () => insert.run(v),
              (err) => resolve(err === null ? 'ok' : 'failed'),
            ),
          ),
      ),
    );
    expect(outcomes).toEqual(['ok', 'ok', 'failed', 'ok']);
    expect(db.prepare('SELECT v FROM t ORDER BY v').pluck().all()).toEqual([1, 2, 4]);
    commits.close();
    const late = await new Promise<unknown>((resolve) =>
      commits.write(
        () => insert.run(5),
        (err) => resolve(err),
      ),
    );
    expect(late).toBeInstanceOf(Error);
  });

  it('answers every one of many concurrent requests only with its row committed', async () => {
    const desk = openDesk();
    const { url } = await startProxy(desk);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const bodies = Array.from({ length: 200 }, (_, i) => JSON.stringify({ userId: `u-${i % 7}`, depositId: `burst-${i}`, currency: 'USD', amount: 1 }));
    const seenAtAnswer = await Promise.all(
      bodies.map(async (body, i) => {
        const reply = await send(url, { body, agent });
        expect(reply.status).toBe(200);
        // The row (and its response) is readable the moment the answer arrives.
        return (await exchangesOf(desk, { depositId: `burst-${i}` }))[0]?.response?.status;
      }),
    );
    agent.destroy();
    expect(seenAtAnswer.every((s) => s === 200)).toBe(true);
    expect(await captures(desk, 1000)).toHaveLength(200);
  });
});

describe('checkpoint worker', () => {
  it('turns the automatic checkpoint off while the proxy runs and back on when it stops', async () => {
    const desk = openDesk();
    const db = sqliteOf(desk);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    const { url } = await startProxy(desk);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    expect((await send(url, { body: '{}' })).status).toBe(400);
    expect((await desk.stopProxy()).ok).toBe(true);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('keeps the automatic checkpoint off across a change of listener, and turns it back on at the stop', async () => {
    const desk = openDesk();
    const db = sqliteOf(desk);
    await startProxy(desk);
    const moved = await desk.startProxy({ port: 0 });
    expect(moved.ok).toBe(true);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    expect((await desk.stopProxy()).ok).toBe(true);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });
});
