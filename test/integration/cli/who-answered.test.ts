// The CLI says what the UI says about an answer: who made it (the desk's own answers, with their cause),
// a bad signature the operator accepted, and the deposit's anomalies; and every command survives a
// reader that stops reading (`| head -1`): exit 0, no stack.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { connectionOf, openStore } from '../../../src-main/core/store/sqlite';
import { capture } from '../../helpers/captures';
import { cliCommand, runCli } from '../../helpers/cli';
import { closeAfterTest } from '../../helpers/closing';
import { openDesk } from '../../helpers/desk';
import { inboundRow } from '../../helpers/exchanges';
import { must } from '../../helpers/must';
import { startOperator } from '../../helpers/operator';
import { closeServer, listen } from '../../helpers/servers';
import { tempDir } from '../../helpers/temp';
import { closedPort, send, startProxy } from '../proxy/helpers';

const pay = (depositId: string): string => JSON.stringify({ userId: 'u-1', depositId, currency: 'USD', amount: 5 });

/** Runs `wager-desk ARGS | head -1` in a real shell with pipefail: the exit status is the CLI's unless it is 0. */
function pipedToHead(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { cmd, args: pre } = cliCommand();
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', 'set -o pipefail; "$@" | head -1', 'bash', cmd, ...pre, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// Each test runs the CLI several times: slow on a loaded machine.
describe('who answered, in the CLI', { timeout: 180_000 }, () => {
  it('a faulted answer reads as the desk’s, with its fault, in `show` and `captures`', async () => {
    const home = tempDir();
    const desk = openDesk(home);
    const { url } = await startProxy(desk);
    const fault = must(await desk.addFault({ path: 'pay', action: { type: 'status', status: 503 }, count: 1 }));
    const reply = await send(url, { body: pay('d-fault'), headers: { 'content-type': 'application/json' } });
    expect(reply.status).toBe(503);
    await desk.close();

    const listed = await runCli(['--home', home, 'captures', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const list = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(list[0]).toMatchObject({ answeredBy: 'desk', deskCause: expect.stringContaining(`fault ${fault.id} (answer 503)`) });
    const id = list[0]!.id as number;

    const shown = await runCli(['--home', home, 'show', String(id)]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(
      new RegExp(`^response: 503 made by the desk, not the operator in [\\d.]+ ms: the desk injected fault ${fault.id} \\(answer 503\\)`, 'm'),
    );
    expect(shown.stdout).not.toMatch(/^response: 503$/m);
    // The fault's note is printed with the response, not among the findings about the message.
    expect(shown.stdout).not.toMatch(/^findings:[^]*was applied/m);

    const table = await runCli(['--home', home, 'captures']);
    expect(table.code, table.stderr).toBe(0);
    const row = table.stdout.split('\n').find((l) => l.includes('d-fault'))!;
    expect(row).toMatch(/desk 503 .*by the desk: the desk injected fault/);
  });

  it('an unreachable upstream: the desk’s 502, with the cause in words', async () => {
    const home = tempDir();
    const desk = openDesk(home);
    const port = await closedPort();
    const { url } = await startProxy(desk, { upstream: `http://127.0.0.1:${port}` });
    expect((await send(url, { body: pay('d-down'), headers: { 'content-type': 'application/json' } })).status).toBe(502);
    await desk.close();
    const shown = await runCli(['--home', home, 'show', '1']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`response: 502 made by the desk, not the operator`);
    expect(shown.stdout).toContain(`the desk could not reach the operator at 127.0.0.1:${port}: connection refused`);
  });

  it('the accepted-bad-signature flag in `captures` and `show`, and `show` lists the deposit’s anomalies', async () => {
    const home = tempDir();
    const desk = openDesk(home);
    must(await desk.saveProfile({ name: 'acme', secret: 'right-secret' }));
    const accepted = await capture(desk, { body: pay('d-bad'), signature: { secret: 'wrong-secret' }, response: { status: 200 } });
    await capture(desk, { body: pay('d-bad'), signature: { secret: 'right-secret' }, response: { status: 200 } });
    const clean = await capture(desk, { body: pay('d-good'), signature: { secret: 'right-secret' }, response: { status: 200 } });
    await desk.close();

    const table = await runCli(['--home', home, 'captures']);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines[0]).toMatch(/status\s+depositId\s+userId\s+amount\s+note$/);
    const bad = lines.find((l) => new RegExp(`^\\s*${accepted}\\s`).test(l))!;
    expect(bad).toMatch(/mismatch\s+200 ⚑\s+d-bad .*⚑ accepted-bad-signature: the operator accepted a callback whose signature does not match its body/);
    const good = lines.find((l) => new RegExp(`^\\s*${clean}\\s`).test(l))!;
    expect(good).not.toContain('⚑');

    const shown = await runCli(['--home', home, 'show', String(accepted)]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('⚑ accepted-bad-signature: the operator accepted a callback whose signature does not match its body (answered 200)');
    expect(shown.stdout).toMatch(/^response: 200 from the operator/m);
    expect(shown.stdout).toMatch(/^deposit d-bad: 2 anomalies$/m);
    expect(shown.stdout).toMatch(new RegExp(`^  ⚑ duplicate-pay: The pay was sent 2 times.*\\(#${accepted} this one, #\\d+\\)$`, 'm'));
    expect(shown.stdout).toMatch(
      new RegExp(`^  ⚑ accepted-bad-signature: The operator accepted a callback whose signature does not match its body\\. \\(#${accepted} this one\\)$`, 'm'),
    );
    const json = JSON.parse((await runCli(['--home', home, 'show', String(accepted), '--json'])).stdout) as { depositFlags: Array<{ flag: string }> };
    expect(json.depositFlags.map((f) => f.flag).sort()).toEqual(['accepted-bad-signature', 'duplicate-pay']);

    const fine = await runCli(['--home', home, 'show', String(clean)]);
    expect(fine.stdout).toMatch(/^deposit d-good: nothing unusual$/m);
    expect(fine.stdout).not.toContain('⚑');
  });
});

describe('a reader that stops reading', { timeout: 180_000 }, () => {
  it('`captures | head -1` exits 0 without a stack, however much was left to write', async () => {
    const home = tempDir();
    const store = openStore(home);
    connectionOf(store).transaction(() => {
      for (let i = 1; i <= 3000; i++)
        store.exchanges.insert(
          inboundRow({ keys: { depositId: `d-${i}`, userId: 'u1', result: null, gameId: null, amount: 5, currency: 'USD', tournamentId: null } }),
        );
    })();
    store.close();
    // 3000 lines are far more than a pipe holds: the CLI is still writing when head leaves.
    for (const args of [
      ['captures', '--limit', '3000'],
      ['captures', '--limit', '3000', '--ndjson'],
      ['captures', '--limit', '3000', '--json'],
    ]) {
      const res = await pipedToHead(['--home', home, ...args]);
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      expect(res.stdout.split('\n').filter((l) => l !== '')).toHaveLength(1);
    }
  });

  it('`check` whose reader leaves after the first line exits 0 without a stack, even with a failing check', async () => {
    const operator = closeAfterTest(await startOperator({ secret: 'check-secret', defects: { unknownRefund500: true } }));
    // The checks after the first wait until the reader has left, so the next line is written to a closed pipe.
    let open!: () => void;
    const readerLeft = new Promise<void>((resolve) => (open = resolve));
    const gate = closeAfterTest(await gatedUpstream(operator.url, readerLeft));
    const home = tempDir();
    const desk = openDesk(home);
    must(await desk.saveProfile({ name: 'p', secret: 'check-secret' }));
    await desk.close();

    const { cmd, args } = cliCommand();
    const child = spawn(cmd, [...args, '--home', home, 'check', '--to', gate.url, '--user-id', 'pipe-user'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    let first = '';
    await new Promise<void>((resolve) => {
      const onData = (d: Buffer): void => {
        first += d.toString();
        if (!first.includes('\n')) return;
        child.stdout.off('data', onData);
        child.stdout.destroy();
        resolve();
      };
      child.stdout.on('data', onData);
    });
    open();
    expect(await exited).toBe(0);
    expect(first.split('\n')[0]).toMatch(/^(PASS|FAIL|\S)/);
    expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
  });
});

/**
 * Relays requests to the operator: the first at once, every later one once `release` resolves (a slow
 * operator the test controls).
 */
async function gatedUpstream(target: string, release: Promise<void>): Promise<{ url: string; close(): Promise<void> }> {
  let seen = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const wait = seen++ === 0 ? Promise.resolve() : release;
      void wait
        .then(async () => {
          const headers = Object.fromEntries(
            Object.entries(req.headers).filter(([n]) => n !== 'host' && n !== 'content-length' && n !== 'connection'),
          ) as Record<string, string>;
          const body = Buffer.concat(chunks);
          const answer = await fetch(new URL(req.url ?? '/', target), { method: req.method ?? 'POST', headers, ...(body.length > 0 ? { body } : {}) });
          res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
          res.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => res.destroy());
    });
  });
  return { url: await listen(server), close: () => closeServer(server) };
}
