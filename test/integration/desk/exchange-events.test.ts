// The desk's exchange events: one per row per commit, in the row's state at the end of the commit, with
// the log's counts after it (what the status bar shows without asking getStatus again).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/core/desk';
import type { ExchangeEvent } from '../../../src-main/shared/model';
import { openDesk } from '../../helpers/desk';
import { must } from '../../helpers/must';
import { send, startProxy } from '../proxy/helpers';

function exchangeEvents(desk: Desk): ExchangeEvent[] {
  const seen: ExchangeEvent[] = [];
  desk.on((name, payload) => {
    if (name === 'exchange') seen.push(payload as ExchangeEvent);
  });
  return seen;
}

describe('exchange events', () => {
  it('a row inserted and completed in one commit (a HAR import) gives one event, in its final state', async () => {
    const desk = openDesk();
    const seen = exchangeEvents(desk);
    const text = readFileSync(new URL('../../fixtures/har/http-toolkit.har', import.meta.url), 'utf8');
    const imported = must(await desk.importHar(text, {}));
    await Promise.resolve(); // the events of a transaction go out in a microtask once it has ended
    expect(seen.map((e) => e.exchange.id)).toEqual(imported.ids);
    for (const event of seen) {
      expect(event.exchange.response).not.toBeNull();
      expect(event.counts).toEqual({ inbound: imported.imported, outbound: 0 });
    }
  });

  it("carries the counts after each commit: a burst through the proxy ends at the log's own counts", async () => {
    const desk = openDesk();
    const seen = exchangeEvents(desk);
    const { url } = await startProxy(desk);
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send(url, { body: JSON.stringify({ userId: 'u', depositId: `burst-${i}`, currency: 'USD', amount: 1 }) })),
    );
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const status = must(await desk.getStatus());
    expect(status.counts).toEqual({ inbound: 20, outbound: 0 });
    expect(seen.at(-1)!.counts).toEqual(status.counts);
    // Counts never go down between events, and every row answered was announced in its final state.
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.counts.inbound).toBeGreaterThanOrEqual(seen[i - 1]!.counts.inbound);
    const last = new Map(seen.map((e) => [e.exchange.id, e.exchange]));
    expect(last.size).toBe(20);
    for (const row of last.values()) expect(row.response?.status).toBe(200);
    // No commit announces one row twice.
    const perCount = new Map<number, number[]>();
    for (const e of seen) perCount.set(e.counts.inbound, [...(perCount.get(e.counts.inbound) ?? []), e.exchange.id]);
    for (const idsOfOneCommit of perCount.values()) expect(new Set(idsOfOneCommit).size).toBe(idsOfOneCommit.length);
  });

  it('a listener of named events gets only those; a row joining later is announced in its final state', async () => {
    const desk = openDesk();
    const names: string[] = [];
    desk.on((name) => names.push(name), ['status']);
    const { url } = await startProxy(desk);
    // Nobody listens for rows: the proxy writes them without building their summaries.
    expect((await send(url, { body: JSON.stringify({ userId: 'u', depositId: 'quiet-1', currency: 'USD', amount: 1 }) })).status).toBe(200);
    expect(names).not.toContain('exchange');
    expect(names).toContain('status');
    // A listener arriving while rows are in flight or after still sees every later row, complete.
    const seen = exchangeEvents(desk);
    expect((await send(url, { body: JSON.stringify({ userId: 'u', depositId: 'heard-1', currency: 'USD', amount: 1 }) })).status).toBe(200);
    const last = seen.at(-1)!;
    expect(last.exchange.depositId).toBe('heard-1');
    expect(last.exchange.response?.status).toBe(200);
    expect(last.counts).toEqual({ inbound: 2, outbound: 0 });
    expect(names).not.toContain('exchange');
  });
});
