// Faults through the real proxy: each is applied to the callbacks it matches, the row of every faulted
// exchange names its fault, and the capture is committed whatever the fault does to the answer.
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/core/desk';
import type { ProxyFaultInput } from '../../../src-main/shared/model';
import { runCli } from '../../helpers/cli';
import { closeAfterTest } from '../../helpers/closing';
import { openDesk } from '../../helpers/desk';
import { must } from '../../helpers/must';
import { startRecorder } from '../../helpers/servers';
import { tempDir } from '../../helpers/temp';
import { captures, latest, send, startProxy } from './helpers';

const PAY = (depositId: string) => JSON.stringify({ userId: 'u-1', depositId, currency: 'USD', amount: 5 });
const WIN = (depositId: string) => JSON.stringify({ result: 'WIN', userId: 'u-1', depositId, roomId: 'r', gameId: 'g', currency: 'USD', amount: 10 });
const headers = { 'content-type': 'application/json' };

async function addFault(desk: Desk, input: ProxyFaultInput) {
  const added = await desk.addFault(input);
  if (!added.ok) throw new Error(added.error.message);
  return added.value;
}

async function faultFindings(desk: Desk) {
  return (await latest(desk)).findings.filter((f) => /^fault \d+/.test(f.message));
}

/** Sends and reports the client-side error instead of a reply (a reset, a hang-up). */
async function sendOrError(url: string, path: string, body: string) {
  try {
    return { reply: await send(url, { path, body, headers }), error: null };
  } catch (err) {
    return { reply: null, error: err as NodeJS.ErrnoException };
  }
}

describe('faults in sandbox mode', () => {
  it('a status fault answers for the next N callbacks without asking the sandbox, then it is spent', async () => {
    const desk = openDesk();
    const { url } = await startProxy(desk);
    const fault = await addFault(desk, { path: 'pay', action: { type: 'status', status: 503, body: '{"down":true}' }, count: 2 });

    for (const d of ['d-1', 'd-2']) {
      const reply = await send(url, { body: PAY(d), headers });
      expect(reply.status).toBe(503);
      expect(reply.body.toString()).toBe('{"down":true}');
      const row = await latest(desk);
      expect(row.response?.status).toBe(503);
      expect(await faultFindings(desk)).toEqual([
        expect.objectContaining({ level: 'warning', message: expect.stringContaining(`fault ${fault.id}: answer 503`) }),
      ]);
    }
    // Results are not matched by a pay fault, and the third pay goes to the sandbox.
    expect((await send(url, { path: '/platform/pay', body: PAY('d-3'), headers })).status).toBe(200);
    expect(await faultFindings(desk)).toEqual([]);
    const state = await desk.getSandboxState();
    expect(state.ok && state.value.deposits.map((d) => d.depositId)).toEqual(['d-3']);
    const listed = await desk.listFaults();
    expect(listed.ok && listed.value).toEqual([expect.objectContaining({ id: fault.id, applied: 2, matched: 2, spent: true })]);
  });

  it('a ratio fault applies to that share of the matching callbacks, counted', async () => {
    const desk = openDesk();
    const { url } = await startProxy(desk);
    await addFault(desk, { action: { type: 'status', status: 500 }, ratio: 0.5 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await send(url, { body: PAY(`r-${i}`), headers })).status);
    expect(statuses).toEqual([200, 500, 200, 500]);
  });

  it('a delay answers after the delay, with the sandbox answer', async () => {
    const desk = openDesk();
    const { url } = await startProxy(desk);
    await addFault(desk, { action: { type: 'delay', ms: 200 }, count: 1 });
    const started = performance.now();
    const reply = await send(url, { body: PAY('d-delay'), headers });
    expect(performance.now() - started).toBeGreaterThanOrEqual(195);
    expect(reply.status).toBe(200);
    expect((await faultFindings(desk))[0]?.message).toMatch(/delay 200 ms/);
    // Recorded as a slow operator's answer: the duration includes the wait, and the sandbox booked the pay.
    expect((await latest(desk)).durationMs).toBeGreaterThanOrEqual(195);
    expect((await latest(desk)).response?.status).toBe(200);
    const state = await desk.getSandboxState();
    expect(state.ok && state.value.deposits.map((d) => d.depositId)).toEqual(['d-delay']);
  });

  it('a reset cuts the connection without an answer; the capture is recorded with the fault', async () => {
    const desk = openDesk();
    const { url } = await startProxy(desk);
    const fault = await addFault(desk, { path: 'results', action: { type: 'reset' } });
    const { reply, error } = await sendOrError(url, '/platform/results', WIN('d-reset'));
    expect(reply).toBeNull();
    expect(error?.code).toBe('ECONNRESET');
    const row = await latest(desk);
    expect(row.kind).toBe('results');
    expect(row.response).toBeNull();
    expect(row.error).toBe(`fault ${fault.id}: connection reset (injected)`);
    expect(Buffer.from(row.request.bodyBase64, 'base64').toString()).toBe(WIN('d-reset'));
  });

  it("a timeout holds the connection without an answer, up to the proxy's request timeout", async () => {
    const desk = openDesk();
    const { url } = await startProxy(desk, { requestTimeoutMs: 300 });
    const fault = await addFault(desk, { action: { type: 'timeout' } });
    const started = performance.now();
    const { reply, error } = await sendOrError(url, '/platform/pay', PAY('d-timeout'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(295);
    expect(reply).toBeNull();
    expect(error?.message).toMatch(/socket hang up|ECONNRESET/);
    expect((await latest(desk)).error).toBe(`fault ${fault.id}: no answer (timeout) (injected)`);
  });
});

describe('faults in forward mode', () => {
  it('a status fault answers instead of the upstream, which never sees the request; a delay holds it before forwarding', async () => {
    const upstream = closeAfterTest(await startRecorder((_req, _body, res) => res.end('{"status":"ok"}')));
    const desk = openDesk();
    const { url } = await startProxy(desk, { upstream: upstream.url });
    await addFault(desk, { action: { type: 'status', status: 502 }, count: 1 });
    const faulted = await send(url, { body: PAY('f-1'), headers });
    expect(faulted.status).toBe(502);
    expect(upstream.received).toHaveLength(0);
    expect((await latest(desk)).findings.some((f) => /the upstream was not asked/.test(f.message))).toBe(true);

    await addFault(desk, { action: { type: 'delay', ms: 150 }, count: 1 });
    const started = performance.now();
    const delayed = await send(url, { body: PAY('f-2'), headers });
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    expect(delayed.status).toBe(200);
    expect(upstream.received.map((r) => r.body.toString())).toEqual([PAY('f-2')]);
    expect((await latest(desk)).response?.status).toBe(200);
    expect((await faultFindings(desk))[0]?.message).toMatch(/held 150 ms before it was forwarded/);
  });

  it('a reset in forward mode: not forwarded, recorded with the fault', async () => {
    const upstream = closeAfterTest(await startRecorder());
    const desk = openDesk();
    const { url } = await startProxy(desk, { upstream: upstream.url });
    const fault = await addFault(desk, { action: { type: 'reset' }, count: 1 });
    const { error } = await sendOrError(url, '/platform/pay', PAY('f-3'));
    expect(error?.code).toBe('ECONNRESET');
    expect(upstream.received).toHaveLength(0);
    expect((await latest(desk)).error).toContain(`fault ${fault.id}`);
    expect(await captures(desk)).toHaveLength(1);
  });
});

describe('a timeout in forward mode', () => {
  it('holds the caller without forwarding, and records the fault', async () => {
    const upstream = closeAfterTest(await startRecorder());
    const desk = openDesk();
    const { url } = await startProxy(desk, { upstream: upstream.url, requestTimeoutMs: 250 });
    const fault = await addFault(desk, { path: 'pay', action: { type: 'timeout' }, count: 1 });
    const { reply, error } = await sendOrError(url, '/platform/pay', PAY('f-4'));
    expect(reply).toBeNull();
    expect(error).not.toBeNull();
    expect(upstream.received).toHaveLength(0);
    expect((await latest(desk)).error).toBe(`fault ${fault.id}: no answer (timeout) (injected)`);
    expect((await send(url, { body: PAY('f-5'), headers })).status).toBe(200);
    expect(upstream.received).toHaveLength(1);
  });
});

describe('faults from another process', () => {
  it('`sandbox fault add` reaches a proxy running in another process; list and clear', async () => {
    const home = tempDir();
    const desk = openDesk(home);
    const { url } = await startProxy(desk);
    expect((await send(url, { body: PAY('x-1'), headers })).status).toBe(200);

    const added = await runCli(['--home', home, 'sandbox', 'fault', 'add', '--status', '429', '--count', '1']);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^fault 1 {2}pay\+results {2}answer 429 {2}next 1/);

    expect((await send(url, { body: PAY('x-2'), headers })).status).toBe(429);
    expect((await send(url, { body: PAY('x-3'), headers })).status).toBe(200);

    const listed = await runCli(['--home', home, 'sandbox', 'fault', 'list', '--json']);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: 1, applied: 1, spent: true })]);
    const cleared = await runCli(['--home', home, 'sandbox', 'fault', 'clear']);
    expect(cleared.stdout).toBe('faults cleared: 1\n');
    expect(must(await desk.listFaults())).toEqual([]);

    const usage = await runCli(['--home', home, 'sandbox', 'fault', 'add', '--status', '500', '--reset']);
    expect(usage.code).toBe(2);
  });
});
