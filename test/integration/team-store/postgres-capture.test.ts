// The proxy capturing into a team's PostgreSQL: every forwarded callback committed before it is
// forwarded, read back whole through the desk; the database away (the link to it cut, as a stopped
// server looks) gives 503s that are neither forwarded nor acknowledged, and the proxy carries on by
// itself once it is back, with every 2XX it answered in the log.
import { describe, expect, it, onTestFinished } from 'vitest';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import type { ExchangeEvent } from '../../../src-main/shared/model';
import { connectPostgres } from '../../../src-main/core/store/postgres';
import { sign } from '../../../src-main/core/signing';
import { must } from '../../helpers/must';
import { startOperator } from '../../helpers/operator';
import { migratedDatabase, teamKeyFile, usePostgres } from '../../helpers/postgres';
import { startRelay } from '../../helpers/tcp-relay';
import { tempDir } from '../../helpers/temp';
import { send, startProxy } from '../proxy/helpers';

const server = usePostgres();
const SECRET = 'team-capture-secret';

async function deskOn(database: string): Promise<Desk> {
  const desk = createDesk({ home: tempDir(), database, keyFile: teamKeyFile(database) });
  onTestFinished(() => desk.close());
  must(await desk.saveProfile({ name: 'acme', secret: SECRET }));
  must(await desk.useProfile('acme'));
  return desk;
}

const pay = (depositId: string): string => JSON.stringify({ userId: 'u-1', depositId, currency: 'EUR', amount: 100 });
const signedPay = (depositId: string) => {
  const body = pay(depositId);
  return { path: '/platform/pay', body, headers: { 'content-type': 'application/json', 'x-server-authorization': sign(Buffer.from(body), SECRET) } };
};

async function rowsIn(url: string): Promise<Array<{ deposit_id: string; res_status: number | null; verdict: string }>> {
  const c = await connectPostgres(url);
  try {
    return (await c.query('SELECT deposit_id, res_status, verdict FROM exchanges ORDER BY id')).rows;
  } finally {
    await c.end();
  }
}

/** A desk whose database link runs through a relay the test can cut, and an operator to forward or send to. */
async function deskBehindRelay() {
  const url = await migratedDatabase(server());
  const target = new URL(url);
  const relay = await startRelay({ host: target.hostname, port: Number(target.port) });
  onTestFinished(() => relay.close());
  const operator = await startOperator({ secret: SECRET });
  onTestFinished(() => operator.close());
  const desk = await deskOn(relay.through(url));
  return { url, target, relay, operator, desk };
}

describe('the proxy over a PostgreSQL exchange log', () => {
  it('commits each forwarded callback, judged, and the desk reads it back whole', async () => {
    const url = await migratedDatabase(server());
    const operator = await startOperator({ secret: SECRET });
    onTestFinished(() => operator.close());
    const desk = await deskOn(url);
    const proxy = await startProxy(desk, { upstream: operator.url });

    const deposits = Array.from({ length: 40 }, (_, i) => `d-pg-${i}`);
    const replies = await Promise.all(deposits.map((d) => send(proxy.url, signedPay(d))));
    expect(replies.map((r) => r.status)).toEqual(deposits.map(() => 200));
    expect(operator.requests.map((r) => (JSON.parse(r.body.toString()) as { depositId: string }).depositId).sort()).toEqual([...deposits].sort());

    // The relayed answers' records join the group after the answers: wait for the last of them.
    await expect.poll(async () => (await rowsIn(url)).filter((r) => r.res_status === 200).length).toBe(deposits.length);
    const page = must(await desk.listExchanges({ limit: 100 }));
    expect(page.items.map((x) => x.depositId).sort()).toEqual([...deposits].sort());
    for (const x of page.items) expect(x).toMatchObject({ kind: 'pay', signature: { verdict: 'valid' }, response: { status: 200 }, profile: 'acme' });
    const detail = must(await desk.getExchange(page.items[0]!.id));
    expect(Buffer.from(detail.request.bodyBase64, 'base64').toString()).toBe(pay(page.items[0]!.depositId!));
    expect(detail.request.headers.some(([n]) => n === 'x-server-authorization')).toBe(true);
    // What a person takes away reads the same log: a HAR of the captures, a ticket for one deposit.
    const har = JSON.parse(must(await desk.exportHar({}))) as { log: { entries: Array<{ request: { postData?: { text: string } } }> } };
    expect(har.log.entries).toHaveLength(deposits.length);
    expect(har.log.entries.map((e) => (JSON.parse(e.request.postData!.text) as { depositId: string }).depositId).sort()).toEqual([...deposits].sort());
    expect(JSON.stringify(har)).not.toContain(SECRET);
    expect(must(await desk.ticketBundle('d-pg-7'))).toMatch(/^## Deposit `d-pg-7`/);
    expect(must(await desk.curlFor(page.items[0]!.id))).toContain(`--data-binary`);
    const status = must(await desk.getStatus());
    expect(status.counts.inbound).toBe(deposits.length);
    expect(status.exchangeLog).toMatch(/^PostgreSQL at postgres:\/\/postgres:\*\*\*@/);
  });

  it("finds the rows a group answers by their key however the log has grown since the writer's statement was first planned", async () => {
    const url = await migratedDatabase(server());
    const c = await connectPostgres(url);
    onTestFinished(() => c.end());
    // This test's own reads never scan the table: every row read by a scan is the desk's (its writer's,
    // and a few by its other connections: the text indexer, the status's counts).
    await c.query('SET enable_seqscan = off');
    // No ANALYZE during the test: it would replace a plan made from an empty table, as it does at last
    // on a live server (after up to a minute of autovacuum's sleep, on a log growing by thousands a second).
    await c.query('ALTER TABLE exchanges SET (autovacuum_enabled = false)');
    const operator = await startOperator({ secret: SECRET });
    onTestFinished(() => operator.close());
    const desk = await deskOn(url);
    const proxy = await startProxy(desk, { upstream: operator.url });
    const answered = async (fromId: number): Promise<number> =>
      Number((await c.query('SELECT count(*) AS n FROM exchanges WHERE id > $1 AND res_status = 200', [fromId])).rows[0].n);
    // Enough groups on a nearly empty table for PostgreSQL to settle on one plan for all runs.
    for (let i = 0; i < 10; i++) expect((await send(proxy.url, signedPay(`d-plan-${i}`))).status).toBe(200);
    await expect.poll(() => answered(0)).toBe(10);
    // Ids are drawn for the captures' rows only, none for the groups that record their answers.
    const drawn = await c.query("SELECT last_value FROM pg_sequences WHERE sequencename = 'exchanges_id_seq'");
    expect(Number(drawn.rows[0].last_value)).toBe(10);
    const bulk = 20_000;
    await c.query(
      `INSERT INTO exchanges (direction, kind, origin, at, method, path, req_headers, req_body, req_size)
       SELECT 'inbound', 'other', 'test', '2026-01-01T00:00:00.000Z', 'GET', '/', '[]', '\\x'::bytea, 0 FROM generate_series(1, $1)`,
      [bulk],
    );
    const grownFrom = Number((await c.query('SELECT max(id) AS id FROM exchanges')).rows[0].id);
    const grown = 10;
    for (let i = 0; i < grown; i++) expect((await send(proxy.url, signedPay(`d-grown-${i}`))).status).toBe(200);
    await expect.poll(() => answered(grownFrom)).toBe(grown);
    // The writer's statistics reach the shared view as its connections end: every answer's update.
    await desk.close();
    const table = async (): Promise<{ updates: number; scanned: number }> => {
      const r = await c.query("SELECT n_tup_upd, seq_tup_read FROM pg_stat_user_tables WHERE relname = 'exchanges'");
      return { updates: Number(r.rows[0].n_tup_upd), scanned: Number(r.rows[0].seq_tup_read) };
    };
    await expect.poll(async () => (await table()).updates).toBe(10 + grown);
    // Ten groups of answers, each a scan of the whole log, would read 200,000 rows; the desk's other
    // connections were seen to read the log whole twice at most (on a loaded machine).
    expect((await table()).scanned).toBeLessThan(5 * bulk);
  });

  it('answers 503 while the database is away, forwards nothing unrecorded, says why, and recovers by itself', async () => {
    const { url, relay, operator, desk } = await deskBehindRelay();
    const proxy = await startProxy(desk, { upstream: operator.url });

    const answered: Array<{ depositId: string; status: number }> = [];
    const call = async (d: string): Promise<number> => {
      const r = await send(proxy.url, signedPay(d)).then(
        (reply) => reply.status,
        () => 0,
      );
      answered.push({ depositId: d, status: r });
      return r;
    };
    expect(await call('before')).toBe(200);

    await relay.cut();
    const during = await Promise.all(Array.from({ length: 20 }, (_, i) => call(`away-${i}`)));
    expect(during).toEqual(during.map(() => 503));
    const away = must(await desk.getStatus());
    expect(away.proxy.warning).toMatch(/could not be written to the database, so its request was answered 503/);
    expect(away.exchangeLogProblem).toMatch(/ECONNREFUSED/);
    expect(JSON.stringify(away)).not.toContain(new URL(url).password);

    await relay.mend();
    let n = 0;
    await expect.poll(() => call(`after-${n++}`), { timeout: 15_000 }).toBe(200);

    const received = new Set(operator.requests.map((r) => (JSON.parse(r.body.toString()) as { depositId: string }).depositId));
    const stored = await rowsIn(url);
    const storedIds = new Set(stored.map((r) => r.deposit_id));
    // Nothing the database did not hold was forwarded; every 2XX has its row.
    expect([...received].filter((d) => !storedIds.has(d))).toEqual([]);
    expect(answered.filter((a) => a.status >= 200 && a.status < 300 && !storedIds.has(a.depositId))).toEqual([]);
    expect([...received].filter((d) => d.startsWith('away-'))).toEqual([]);
  });

  it('sends nothing while the database is away: a send is recorded before its bytes leave, and works again once it is back', async () => {
    const { url, target, relay, operator, desk } = await deskBehindRelay();
    must(await desk.saveProfile({ name: 'acme', operatorUrl: operator.url }));
    const draft = must(await desk.draftTemplate('pay', 'u-away'));

    await relay.cut();
    const refused = await desk.send({ draft });
    expect(refused).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^PostgreSQL at postgres:\/\/postgres:\*\*\*@/) } });
    expect(JSON.stringify(refused)).not.toContain(target.password);
    expect(operator.requests).toHaveLength(0);

    await relay.mend();
    // The writer reconnects by itself; every attempt before that fails before sending.
    await expect.poll(async () => (await desk.send({ draft })).ok, { timeout: 15_000 }).toBe(true);
    expect(operator.requests).toHaveLength(1);
    const rows = await rowsIn(url);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ res_status: 200 });
  });

  it('sandbox mode on two proxies: the same deposit sent to both at once is deducted once, and settled once', async () => {
    const url = await migratedDatabase(server());
    const desks = [await deskOn(url), await deskOn(url)];
    const proxies = [await startProxy(desks[0]!), await startProxy(desks[1]!)];
    // Eight stakes of 100 fit the starting balance of 1000.
    const deposits = Array.from({ length: 8 }, (_, i) => `d-twice-${i}`);
    // Each deposit at both proxies in the same instant, every deposit at once.
    const replies = await Promise.all(deposits.flatMap((d) => proxies.map((p) => send(p.url, signedPay(d)))));
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
    for (let i = 0; i < deposits.length; i++) {
      // The second is answered with the first answer, byte for byte.
      expect(replies[2 * i + 1]!.body.toString()).toBe(replies[2 * i]!.body.toString());
    }
    const c = await connectPostgres(url, { numbers: true });
    onTestFinished(() => c.end());
    const booked = await c.query<{ deposit_id: string }>("SELECT deposit_id FROM sandbox_deposits WHERE profile = 'acme' ORDER BY deposit_id");
    expect(booked.rows.map((r) => r.deposit_id)).toEqual([...deposits].sort());
    const balance = await c.query<{ balance: number }>("SELECT balance FROM sandbox_users WHERE profile = 'acme' AND user_id = 'u-1'");
    // The starting balance (1000) less one stake (100) per deposit, not two.
    expect(balance.rows[0]!.balance).toBe(200);

    // A WIN for a paid deposit, at both proxies at once: credited once.
    const win = JSON.stringify({ result: 'WIN', userId: 'u-1', depositId: deposits[0], roomId: 'r-1', gameId: 'blocks', currency: 'EUR', amount: 250 });
    const results = {
      path: '/platform/results',
      body: win,
      headers: { 'content-type': 'application/json', 'x-server-authorization': sign(Buffer.from(win), SECRET) },
    };
    const settled = await Promise.all(proxies.map((p) => send(p.url, results)));
    expect(settled.map((r) => r.status)).toEqual([200, 200]);
    expect(settled[1]!.body.toString()).toBe(settled[0]!.body.toString());
    expect((await c.query("SELECT balance FROM sandbox_users WHERE profile = 'acme' AND user_id = 'u-1'")).rows[0].balance).toBe(450);
    // The sandbox panel of any desk on the database shows the one ledger.
    const books = must(await desks[1]!.getSandboxState());
    expect(books.users).toEqual([{ userId: 'u-1', balance: 450 }]);
    expect(books.deposits.map((d) => [d.depositId, d.outcome])).toEqual(
      expect.arrayContaining([[deposits[0], 'WIN'], ...deposits.slice(1).map((d) => [d, null])]),
    );
    expect(must(await desks[0]!.setSandboxBalance('u-1', 1000)).users).toEqual([{ userId: 'u-1', balance: 1000 }]);
    const rows = await c.query<{ n: number }>("SELECT count(*)::int AS n FROM exchanges WHERE kind = 'pay' AND res_status = 200");
    expect(rows.rows[0]!.n).toBe(2 * deposits.length);
  });

  it('another desk on the same database hears each capture as an event, live (LISTEN/NOTIFY)', async () => {
    const url = await migratedDatabase(server());
    const operator = await startOperator({ secret: SECRET });
    onTestFinished(() => operator.close());
    const capturing = await deskOn(url);
    const watching = await deskOn(url);
    const heard: ExchangeEvent[] = [];
    const off = watching.on((name, payload) => void (name === 'exchange' && heard.push(payload as ExchangeEvent)), ['exchange']);
    onTestFinished(off);
    const proxy = await startProxy(capturing, { upstream: operator.url });
    // Listening starts with the subscription: only what commits after it is news.
    await expect.poll(() => send(proxy.url, signedPay('d-warm')).then(() => heard.length), { timeout: 10_000 }).toBeGreaterThan(0);
    const deposits = ['d-live-1', 'd-live-2', 'd-live-3'];
    for (const d of deposits) expect((await send(proxy.url, signedPay(d))).status).toBe(200);
    await expect.poll(() => heard.map((e) => e.exchange.depositId).filter((d) => deposits.includes(d!)), { timeout: 10_000 }).toEqual(deposits);
    const last = heard[heard.length - 1]!;
    expect(last.exchange).toMatchObject({ response: { status: 200 }, signature: { verdict: 'valid' } });
    expect(last.counts.inbound).toBeGreaterThanOrEqual(deposits.length + 1);
  });

  it('refuses to start on a database without the schema, naming the way out and not the password', async () => {
    const url = await server().newDatabase();
    const desk = createDesk({ home: tempDir(), database: url });
    onTestFinished(() => desk.close());
    const started = await desk.startProxy({ port: 0, upstream: 'http://127.0.0.1:9' });
    expect(started.ok).toBe(false);
    if (started.ok) return;
    expect(started.error.message).toMatch(/has no Wager Desk schema: run wager-desk db migrate/);
    expect(started.error.message).not.toContain(new URL(url).password);
  });

  it('lists a search on an empty log: no row, no refusal', async () => {
    const desk = await deskOn(await migratedDatabase(server()));
    expect(must(await desk.listExchanges({ search: 'anything in a body' })).items).toEqual([]);
    expect(must(await desk.listExchanges({ search: 'd-' })).items).toEqual([]);
  });

  it("searches the text of the proxy's captures as they commit, and once the proxy's indexer has them", async () => {
    const url = await migratedDatabase(server());
    const operator = await startOperator({ secret: SECRET });
    onTestFinished(() => operator.close());
    const desk = await deskOn(url);
    const proxy = await startProxy(desk, { upstream: operator.url });
    const deposits = ['d-find-1', 'd-find-2', 'd-other'];
    for (const d of deposits) expect((await send(proxy.url, signedPay(d))).status).toBe(200);
    const found = async (): Promise<string[]> => must(await desk.listExchanges({ search: 'D-FIND' })).items.map((x) => x.depositId!);
    expect(await found()).toEqual(['d-find-2', 'd-find-1']);
    // The proxy's indexer reaches every row (their answers too), and the search still finds the same.
    const indexed = async (): Promise<boolean> => {
      const c = await connectPostgres(url, { numbers: true });
      try {
        return (await c.query('SELECT count(*) = 3 AS done FROM exchange_text WHERE answer IS NOT NULL')).rows[0].done as boolean;
      } finally {
        await c.end();
      }
    };
    await expect.poll(indexed, { timeout: 20_000 }).toBe(true);
    expect(await found()).toEqual(['d-find-2', 'd-find-1']);
    expect(must(await desk.listExchanges({ search: '"currency":"EUR"', limit: 2 })).items.map((x) => x.depositId)).toEqual(['d-other', 'd-find-2']);
  });
});
