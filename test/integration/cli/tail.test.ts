// `wager-desk tail` in its own process follows what another process records: `serve` (a third process)
// or a desk in the test process. Lines are awaited as they arrive; nothing sleeps.
import { describe, expect, it } from 'vitest';
import { sign } from '../../../src-main/core/signing';
import type { ExchangeSummary } from '../../../src-main/shared/model';
import { capture } from '../../helpers/captures';
import { logOf, openDesk } from '../../helpers/desk';
import { must } from '../../helpers/must';
import { tempDir } from '../../helpers/temp';
import { startServe } from '../proxy/serve-process';
import { startTail } from './tail-process';

const pay = (depositId: string): string => JSON.stringify({ depositId, userId: 'u-1', amount: 100, currency: 'EUR', gameId: 'blocks' });

describe('wager-desk tail', () => {
  it('prints the captures `serve` makes in another process, once each when complete, as `serve --tail` does', async () => {
    const home = tempDir();
    const desk = openDesk(home);
    must(await desk.saveProfile({ name: 'acme', secret: 'tail-secret' }));
    await desk.close();
    const serve = await startServe(['--home', home, 'serve', '--proxy-port', '0', '--no-ui', '--tail']);
    const json = await startTail(['--home', home, '--json']);
    const text = await startTail(['--home', home]);

    const deposits = Array.from({ length: 12 }, (_, i) => `d-tail-${i}`);
    for (const d of deposits) {
      const body = pay(d);
      const res = await fetch(`${serve.url}/platform/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-server-authorization': sign(Buffer.from(body), 'tail-secret') },
        body,
      });
      await res.arrayBuffer();
    }
    const rows = (await json.waitForLines(deposits.length)).map((l) => JSON.parse(l) as ExchangeSummary);
    expect(rows.map((r) => r.depositId)).toEqual(deposits);
    // The sandbox operator answers each (402 once the user's balance is spent): every line carries its answer.
    for (const r of rows)
      expect(r).toMatchObject({ direction: 'inbound', kind: 'pay', signature: { verdict: 'valid' }, response: { status: expect.any(Number) } });

    const lines = await text.waitForLines(deposits.length);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3}\s+inbound\s+pay\s+d-tail-0\s+valid\s+#\d+\s+\d{3}\s+\d+ms$/);
    // serve's own lines: the same formatter, from its events.
    const own = await serve.waitForStdout(/d-tail-11/);
    expect(own.replace(/^\S+/, '')).toBe(lines[11]!.replace(/^\S+/, ''));

    expect(await json.stop('SIGINT')).toBe(0);
    expect(await text.stop('SIGTERM')).toBe(0);
    expect(json.lines()).toHaveLength(deposits.length);
    await serve.stop('SIGTERM');
  });

  it('holds a row in flight until its answer is recorded, and applies the filters', async () => {
    const home = tempDir();
    const desk = openDesk(home);
    must(await desk.saveProfile({ name: 'acme', secret: 's' }));
    const tail = await startTail(['--home', home, '--json', '--deposit', 'd-wanted']);

    const inFlight = await capture(desk, { body: pay('d-wanted') });
    await capture(desk, { body: pay('d-other'), response: { status: 200 } });
    const done = await capture(desk, { body: pay('d-wanted'), signature: { secret: 's' }, response: { status: 201 } });
    const [first] = await tail.waitForLines(1);
    expect((JSON.parse(first!) as ExchangeSummary).id).toBe(done);

    await logOf(desk).write((rows) =>
      rows.finish(inFlight, {
        response: { status: 503, headers: [], body: new Uint8Array() },
        error: null,
        durationMs: 40,
        completedAt: new Date().toISOString(),
      }),
    );
    const all = (await tail.waitForLines(2)).map((l) => JSON.parse(l) as ExchangeSummary);
    expect(all.map((x) => [x.id, x.response?.status])).toEqual([
      [done, 201],
      [inFlight, 503],
    ]);
    expect(await tail.stop('SIGINT')).toBe(0);
    expect(tail.lines()).toHaveLength(2);
  });

  it('marks the desk’s answers with their cause and a bad signature the operator accepted; stops with 0 when its reader leaves', async () => {
    const home = tempDir();
    const desk = openDesk(home);
    must(await desk.saveProfile({ name: 'acme', secret: 's' }));
    const tail = await startTail(['--home', home]);
    const refused = await capture(desk, {
      body: pay('d-down'),
      signature: { secret: 's' },
      response: { status: 502 },
      error: 'the upstream is unreachable: connect ECONNREFUSED 127.0.0.1:9',
    });
    const accepted = await capture(desk, { body: pay('d-bad'), signature: { secret: 'not-s' }, response: { status: 200 } });
    const fine = await capture(desk, { body: pay('d-fine'), signature: { secret: 's' }, response: { status: 200 } });
    const lines = await tail.waitForLines(3);
    const line = (id: number): string => lines.find((l) => l.includes(`#${id} `))!;
    expect(line(refused)).toMatch(/ desk 502 .* by the desk: the desk could not reach the operator at 127\.0\.0\.1:9: connection refused$/);
    expect(line(accepted)).toMatch(/ mismatch .* 200 ⚑ .* ⚑ accepted-bad-signature: the operator accepted a callback whose signature does not match its body$/);
    expect(line(fine)).not.toMatch(/desk|⚑/);

    // The reader leaves (as `| head` does): the next line meets a closed pipe and tail ends as on SIGTERM.
    tail.closeOutput();
    await capture(desk, { body: pay('d-after'), response: { status: 200 } });
    expect(await tail.exited).toBe(0);
  });
});
