// Deleting exchanges by hand: by ids or by the list's filter, in one transaction; the counts the status
// bar shows follow (a status event), and a dry run only counts.
import { describe, expect, it } from 'vitest';
import type { DeskEvents } from '../../../src-main/shared/desk-api';
import { openDesk } from '../../helpers/desk';
import { captures, send, startProxy } from '../proxy/helpers';

const pay = (userId: string, depositId: string) => JSON.stringify({ userId, depositId, currency: 'USD', amount: 1 });

async function deskWithCaptures() {
  const desk = openDesk();
  const { url } = await startProxy(desk);
  for (const [u, d] of [
    ['alice', 'a-1'],
    ['alice', 'a-2'],
    ['bob', 'b-1'],
    ['carol', 'c-1'],
  ] as const) {
    await send(url, { body: pay(u, d), headers: { 'content-type': 'application/json' } });
  }
  const statuses: Array<DeskEvents['status']> = [];
  desk.on((name, payload) => {
    if (name === 'status') statuses.push(payload as DeskEvents['status']);
  });
  return { desk, statuses };
}

describe('deleteExchanges', () => {
  it("deletes a filter's rows; a dry run counts them first; the counts follow in the answer, the status and a status event", async () => {
    const { desk, statuses } = await deskWithCaptures();
    const dry = await desk.deleteExchanges({ filter: { userId: 'alice' } }, { dryRun: true });
    expect(dry.ok && dry.value).toMatchObject({ deleted: 2, dryRun: true, counts: { inbound: 4, outbound: 0 } });
    expect(dry.ok && dry.value.lastId).toBeGreaterThan(0);
    expect(await captures(desk)).toHaveLength(4);
    expect(statuses).toHaveLength(0);

    const done = await desk.deleteExchanges({ filter: { userId: 'alice' } });
    expect(done.ok && done.value).toMatchObject({ deleted: 2, dryRun: false, counts: { inbound: 2, outbound: 0 } });
    expect((await captures(desk)).map((x) => x.userId).sort()).toEqual(['bob', 'carol']);
    expect(statuses.at(-1)?.counts).toEqual({ inbound: 2, outbound: 0 });
    const status = await desk.getStatus();
    expect(status.ok && status.value.counts).toEqual({ inbound: 2, outbound: 0 });
  });

  it('deletes only the rows the dry run counted: a capture recorded after it (the list is live) stays', async () => {
    const { desk } = await deskWithCaptures();
    const dry = await desk.deleteExchanges({ filter: { userId: 'alice' } }, { dryRun: true });
    if (!dry.ok) throw new Error(dry.error.message);
    const status = await desk.getStatus();
    const { url } = status.ok ? { url: status.value.proxy.url! } : { url: '' };
    await send(url, { body: pay('alice', 'a-late'), headers: { 'content-type': 'application/json' } });
    const done = await desk.deleteExchanges({ filter: { userId: 'alice' }, upToId: dry.value.lastId! });
    expect(done.ok && done.value.deleted).toBe(dry.value.deleted);
    expect((await captures(desk)).filter((x) => x.userId === 'alice').map((x) => x.depositId)).toEqual(['a-late']);
  });

  it('deletes the selected ids only; unknown ids are no error', async () => {
    const { desk, statuses } = await deskWithCaptures();
    const [newest, next] = await captures(desk);
    const done = await desk.deleteExchanges({ ids: [newest!.id, next!.id, 999_999] });
    expect(done.ok && done.value.deleted).toBe(2);
    expect((await captures(desk)).map((x) => x.id)).not.toContain(newest!.id);
    expect(statuses.at(-1)?.counts.inbound).toBe(2);
  });

  it('refuses a target that is neither ids nor a filter', async () => {
    const { desk } = await deskWithCaptures();
    const bad = await desk.deleteExchanges({ ids: [1.5] });
    expect(bad.ok).toBe(false);
    expect(await captures(desk)).toHaveLength(4);
  });
});
