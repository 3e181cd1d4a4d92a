// The desk's own sandbox operator (its proxy with no upstream) is a correct operator: the
// conformance check, run from the same desk against the proxy URL, passes every check.
import { describe, expect, it } from 'vitest';
import { CONFORMANCE_CHECK_IDS } from '../../../src-main/core/checks';
import { openDesk } from '../../helpers/desk';
import { exchangeOf, exchangesOf } from '../../helpers/log-reads';

describe('conformance check against the sandbox operator', () => {
  it('passes every check', async () => {
    const desk = openDesk();
    await desk.saveProfile({ name: 'sandbox', secret: 'sandbox-check-secret' });
    const started = await desk.startProxy({ port: 0, upstream: null });
    if (!started.ok) throw new Error(started.error.message);
    expect(started.value.proxy.mode).toBe('sandbox');
    const url = started.value.proxy.url!;

    // Enough for the whole matrix of pays (every cell pays its own deposit).
    const funded = await desk.setSandboxBalance('sandbox-user', 1_000_000);
    if (!funded.ok) throw new Error(funded.error.message);
    const res = await desk.runCheck({ to: url, userId: 'sandbox-user' });
    if (!res.ok) throw new Error(res.error.message);
    const failed = res.value.checks.filter((c) => c.pass === false);
    expect(failed.map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
    expect(res.value.passed).toBe(CONFORMANCE_CHECK_IDS.length);

    // The proxy captured every step as an inbound exchange, and the sandbox booked the pay of the WIN once, settled by it.
    const inbound = await exchangesOf(desk, { direction: 'inbound', limit: 1000 });
    const outbound = res.value.checks.flatMap((c) => (c.pass === null ? [] : c.exchangeIds));
    expect(inbound.length).toBe(outbound.length);
    const state = await desk.getSandboxState();
    if (!state.ok) throw new Error(state.error.message);
    const payExchange = await exchangeOf(desk, res.value.checks.find((c) => c.id === 'results.WIN.valid')!.exchangeIds[0]!);
    expect(payExchange.depositId).toMatch(new RegExp(`^wd-${res.value.runId}[0-9a-f]{16}$`));
    const firstPay = state.value.deposits.filter((d) => d.depositId === payExchange.depositId);
    expect(firstPay).toHaveLength(1);
    expect(firstPay[0]!.outcome).toBe('WIN');
  });
});
