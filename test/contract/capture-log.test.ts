// One contract, two engines: the exchange log as the proxy writes it (the capture writer: group commit,
// a failing write alone, answers and findings in later groups, close) and as the desk reads it (list,
// one exchange, follow), with the sandbox's books decided inside the writes. The same cases run
// against the data directory's SQLite and a real PostgreSQL; what one engine does, the other must.
import { describe, expect, it, onTestFinished } from 'vitest';
import { createDesk, type Desk } from '../../src-main/core/desk';
import type { CaptureTx, CaptureWriter } from '../../src-main/core/proxy';
import { GroupCommit } from '../../src-main/core/store/sqlite/group-commit';
import { SandboxOperator, type SandboxCall } from '../../src-main/core/sandbox';
import { sign } from '../../src-main/core/signing';
import { connectionOf } from '../../src-main/core/store/sqlite';
import { TeamLog } from '../../src-main/core/store/postgres';
import type { ExchangeCompletion, NewExchange } from '../../src-main/core/store/sqlite';
import type { DeskEvents } from '../../src-main/shared/desk-api';
import type { Finding } from '../../src-main/shared/model';
import { storeOf } from '../helpers/desk';
import { inboundRow } from '../helpers/exchanges';
import { must } from '../helpers/must';
import { migratedDatabase, teamKeyFile, usePostgres } from '../helpers/postgres';
import { tempDir } from '../helpers/temp';

const server = usePostgres();

interface Engine {
  desk: Desk;
  writer(): CaptureWriter;
}

async function sqliteEngine(): Promise<Engine> {
  const desk = createDesk({ home: tempDir() });
  onTestFinished(() => desk.close());
  const store = storeOf(desk);
  const operator = new SandboxOperator(store.sandbox);
  const tx: CaptureTx = { rows: store.exchanges, sandbox: (call) => operator.handle(call) };
  return { desk, writer: () => new GroupCommit(connectionOf(store), tx) };
}

async function postgresEngine(): Promise<Engine> {
  const url = await migratedDatabase(server());
  const desk = createDesk({ home: tempDir(), database: url, keyFile: teamKeyFile(url) });
  onTestFinished(() => desk.close());
  const log = new TeamLog(url);
  onTestFinished(() => log.close());
  const ledger = storeOf(desk).sandbox;
  const operator = new SandboxOperator(ledger);
  return { desk, writer: () => log.openWriter({ operator, startingBalance: () => ledger.startingBalance() }) };
}

/** A write's outcome, once the writer says so. */
function written<T>(writer: CaptureWriter, write: (tx: CaptureTx) => T): Promise<{ error: unknown; value: T | undefined }> {
  return new Promise((resolve) => writer.write(write, (error, value) => resolve({ error, value })));
}

const answer = (status: number, body = '{"status":"ok"}'): ExchangeCompletion => ({
  response: { status, headers: [['content-type', 'application/json']], body: Buffer.from(body) },
  error: null,
  durationMs: 3.5,
  completedAt: new Date().toISOString(),
});

const row = (depositId: string, extra: Partial<NewExchange> = {}): NewExchange =>
  inboundRow({ body: Buffer.from(`{"depositId":"${depositId}"}`), keys: { ...inboundRow().keys, depositId }, profile: 'acme', ...extra });

const payCall = (depositId: string, amount = 100): SandboxCall => ({
  kind: 'pay',
  method: 'POST',
  body: Buffer.from(JSON.stringify({ userId: 'u-1', depositId, currency: 'EUR', amount })),
  verdict: 'valid',
  secretConfigured: true,
  at: new Date().toISOString(),
  book: 'acme',
});

const ENGINES: Array<[string, () => Promise<Engine>]> = [
  ['SQLite', sqliteEngine],
  ['PostgreSQL', postgresEngine],
];

describe.each(ENGINES)('the exchange log on %s', (_name, engine) => {
  it('commits the writes of one turn together, each told its row id once durable; the desk reads them back whole', async () => {
    const { desk, writer } = await engine();
    const w = writer();
    onTestFinished(() => w.close());
    const outcomes = await Promise.all(
      ['d-1', 'd-2', 'd-3'].map((d) =>
        written(w, (tx) => {
          const id = tx.rows.record(row(d, { headers: [['x-server-authorization', 'ab'.repeat(32)]] }));
          tx.rows.finish(id, answer(200, `{"depositId":"${d}"}`));
          return id;
        }),
      ),
    );
    expect(outcomes.map((o) => o.error)).toEqual([null, null, null]);
    const ids = outcomes.map((o) => o.value!);
    expect(new Set(ids).size).toBe(3);
    const page = must(await desk.listExchanges({ limit: 10 }));
    expect(page.items.map((x) => x.id)).toEqual([...ids].sort((a, b) => b - a));
    expect(page.items.map((x) => x.depositId)).toEqual(['d-3', 'd-2', 'd-1']);
    for (const x of page.items)
      expect(x).toMatchObject({ kind: 'pay', signature: { verdict: 'valid' }, response: { status: 200 }, durationMs: 3.5, profile: 'acme' });
    const detail = must(await desk.getExchange(ids[1]!));
    expect(Buffer.from(detail.request.bodyBase64, 'base64').toString()).toBe('{"depositId":"d-2"}');
    expect(detail.request.headers).toEqual([['x-server-authorization', 'ab'.repeat(32)]]);
    expect(Buffer.from(detail.response!.bodyBase64, 'base64').toString()).toBe('{"depositId":"d-2"}');
    expect(detail.request.truncated).toBe(false);
  });

  it('a write that fails fails alone: its neighbours in the group commit', async () => {
    const { desk, writer } = await engine();
    const w = writer();
    onTestFinished(() => w.close());
    const outcomes = await Promise.all([
      written(w, (tx) => tx.rows.record(row('kept-1'))),
      written(w, (tx) => {
        tx.rows.record(row('dropped'));
        throw new Error('this write fails after recording');
      }),
      written(w, (tx) => tx.rows.record(row('kept-2'))),
    ]);
    expect(outcomes.map((o) => (o.error === null ? 'ok' : (o.error as Error).message))).toEqual(['ok', 'this write fails after recording', 'ok']);
    expect(must(await desk.listExchanges({ limit: 10 })).items.map((x) => x.depositId)).toEqual(['kept-2', 'kept-1']);
  });

  it('an answer and findings recorded in a later group land on the row; a write naming a missing row fails', async () => {
    const { desk, writer } = await engine();
    const w = writer();
    onTestFinished(() => w.close());
    const id = (await written(w, (tx) => tx.rows.record(row('later', { findings: [{ level: 'info', path: '$', message: 'first' }] })))).value!;
    const late: Finding[] = [{ level: 'error', path: '$.amount', message: 'cut answer' }];
    expect((await written(w, (tx) => (tx.rows.addFindings(id, late), tx.rows.finish(id, answer(201))))).error).toBeNull();
    const detail = must(await desk.getExchange(id));
    expect(detail.findings.map((f) => f.message)).toEqual(['first', 'cut answer']);
    expect(detail.errorCount).toBe(1);
    expect(detail.response?.status).toBe(201);
    const missing = await written(w, (tx) => tx.rows.finish(id + 1000, answer(200)));
    expect((missing.error as Error).message).toMatch(/does not exist/);
  });

  it('follow: a row in flight is pending, then completed once its answer commits', async () => {
    const { desk, writer } = await engine();
    const w = writer();
    onTestFinished(() => w.close());
    const start = must(await desk.followExchanges({ afterId: null }));
    const id = (await written(w, (tx) => tx.rows.record(row('in-flight')))).value!;
    const first = must(await desk.followExchanges({ afterId: start.afterId }));
    expect(first).toMatchObject({ completed: [], pending: [id], afterId: id });
    await written(w, (tx) => tx.rows.finish(id, answer(200)));
    const second = must(await desk.followExchanges({ afterId: first.afterId, pendingIds: first.pending }));
    expect(second.completed.map((x) => [x.id, x.response?.status])).toEqual([[id, 200]]);
    expect(second.pending).toEqual([]);
  });

  it("the sandbox's books: a deposit twice in one group and again later is deducted once; its result settles once", async () => {
    const { desk, writer } = await engine();
    const w = writer();
    onTestFinished(() => w.close());
    const decide = (call: SandboxCall) =>
      written(w, (tx) => {
        const outcome = tx.sandbox(call);
        const id = tx.rows.record(row(JSON.parse(Buffer.from(call.body).toString()).depositId as string));
        tx.rows.finish(id, answer(outcome.answer.status, outcome.answer.body));
        return outcome.answer;
      });
    const same = await Promise.all([decide(payCall('dep-1')), decide(payCall('dep-1')), decide(payCall('dep-2'))]);
    expect(same.map((o) => o.error)).toEqual([null, null, null]);
    expect(same[1]!.value).toEqual(same[0]!.value);
    expect(JSON.parse(same[2]!.value!.body)).toMatchObject({ balance: 800 });
    const again = await decide(payCall('dep-1'));
    expect(again.value).toEqual(same[0]!.value);

    const win = Buffer.from(JSON.stringify({ result: 'WIN', userId: 'u-1', depositId: 'dep-1', roomId: 'r', gameId: 'blocks', currency: 'EUR', amount: 150 }));
    const settle = (): ReturnType<typeof decide> => decide({ ...payCall('dep-1'), kind: 'results', body: win });
    const [first, second] = await Promise.all([settle(), settle()]);
    expect(JSON.parse(first!.value!.body)).toMatchObject({ balance: 950 });
    expect(second!.value).toEqual(first!.value);
    expect(must(await desk.listExchanges({ limit: 10 })).items).toHaveLength(6);
  });

  it('prune: by count and by age, in batches; a replay whose source goes keeps its row, unlinked', async () => {
    const { desk, writer } = await engine();
    const w = writer();
    onTestFinished(() => w.close());
    const old = new Date(Date.now() - 10 * 24 * 3600_000).toISOString();
    const ids: number[] = [];
    for (const d of ['p-1', 'p-2', 'p-3', 'p-4', 'p-5']) ids.push((await written(w, (tx) => tx.rows.record(row(d, d === 'p-4' ? { at: old } : {})))).value!);
    const replay = (await written(w, (tx) => tx.rows.record(row('p-1', { direction: 'outbound', origin: 'replay', sourceId: ids[0]! })))).value!;
    // The newest four stay (p-3, p-4, p-5 and the replay)... but p-4 is ten days old.
    const report = must(await desk.prune({ keep: 4, olderThanDays: 7 }));
    expect(report).toMatchObject({ deleted: 3, remaining: 3, detached: 1 });
    const left = must(await desk.listExchanges({ direction: 'all', limit: 10 })).items;
    expect(left.map((x) => x.depositId)).toEqual(['p-1', 'p-5', 'p-3']);
    expect(must(await desk.getExchange(replay)).sourceId).toBeNull();
    expect(must(await desk.prune({ keep: 10 }))).toMatchObject({ deleted: 0, remaining: 3 });
  });

  it("a deposit's timeline: its rows and the replays that name no deposit, oldest first, with what looks wrong", async () => {
    const { desk, writer } = await engine();
    const w = writer();
    onTestFinished(() => w.close());
    const first = (await written(w, (tx) => tx.rows.record(row('t-1')))).value!;
    await written(w, (tx) => tx.rows.record(row('t-other')));
    const again = (await written(w, (tx) => tx.rows.record(row('t-1')))).value!;
    const replay = (
      await written(w, (tx) =>
        tx.rows.record(row('t-1', { direction: 'outbound', origin: 'replay', sourceId: first, keys: { ...inboundRow().keys, depositId: null } })),
      )
    ).value!;
    must(await desk.saveProfile({ name: 'acme' }));
    must(await desk.saveProfile({ name: 'another', callbackPrefix: '/another' }));
    const timeline = must(await desk.getTimeline('t-1', 'acme'));
    expect(timeline.entries.map((e) => e.id)).toEqual([first, again, replay]);
    expect(timeline.flags.map((f) => [f.flag, f.exchangeIds])).toContainEqual(['duplicate-pay', [first, again]]);
    expect(must(await desk.getTimeline('t-1', 'another')).entries).toEqual([]);
  });

  it('reverify: captures taken before the secret was set are judged again with it, the first verdict kept', async () => {
    const { desk, writer } = await engine();
    const w = writer();
    onTestFinished(() => w.close());
    const body = Buffer.from('{"depositId":"r-1"}');
    const signed = (secret: string, d: string) =>
      row(d, { body, headers: [['x-server-authorization', sign(body, secret)]], signature: { verdict: 'no-secret', notes: [], diagnosis: null } });
    const good = (await written(w, (tx) => tx.rows.record(signed('reverify-secret', 'r-1')))).value!;
    const bad = (await written(w, (tx) => tx.rows.record(signed('another-secret', 'r-2')))).value!;
    must(await desk.saveProfile({ name: 'acme', secret: 'reverify-secret' }));
    // Each row judged again is announced with its new verdict, as any change to a row is.
    const announced = new Map<number, string | null>();
    const unsubscribe = desk.on((name, payload) => {
      if (name !== 'exchange') return;
      const { exchange } = payload as DeskEvents['exchange'];
      announced.set(exchange.id, exchange.signature.verdict);
    });
    onTestFinished(unsubscribe);
    const report = must(await desk.reverify({ profile: 'acme' }));
    expect(report).toMatchObject({ judged: 2, changed: 2, verdicts: { valid: 1, mismatch: 1 } });
    expect(announced.get(good)).toBe('valid');
    expect(announced.get(bad)).toBe('mismatch');
    expect(report.changedIds.sort((x, y) => x - y)).toEqual([good, bad]);
    const detail = must(await desk.getExchange(good));
    expect(detail.signature.verdict).toBe('valid');
    expect(detail.reverified).toMatchObject({ profile: 'acme', originalVerdict: 'no-secret' });
    expect(must(await desk.getExchange(bad)).signature.verdict).toBe('mismatch');
    // Again: nothing changes, and the first verdict is still the one recorded at capture.
    expect(must(await desk.reverify({ profile: 'acme' }))).toMatchObject({ judged: 2, changed: 0 });
    expect(must(await desk.getExchange(good)).reverified?.originalVerdict).toBe('no-secret');
  });

  it('delete by hand: by ids, or by a filter up to the id a dry run counted', async () => {
    const { desk, writer } = await engine();
    const w = writer();
    onTestFinished(() => w.close());
    const ids: number[] = [];
    for (const d of ['x-1', 'x-2', 'x-2', 'x-3']) ids.push((await written(w, (tx) => tx.rows.record(row(d)))).value!);
    expect(must(await desk.deleteExchanges({ ids: [ids[0]!] }))).toMatchObject({ deleted: 1, lastId: ids[0] });
    const counted = must(await desk.deleteExchanges({ filter: { depositId: 'x-2' } }, { dryRun: true }));
    expect(counted).toMatchObject({ deleted: 2, lastId: ids[2], dryRun: true });
    // A row recorded after the count is not deleted with the ones counted.
    const late = (await written(w, (tx) => tx.rows.record(row('x-2')))).value!;
    expect(must(await desk.deleteExchanges({ filter: { depositId: 'x-2' }, upToId: counted.lastId! }))).toMatchObject({ deleted: 2 });
    expect(must(await desk.listExchanges({ limit: 10 })).items.map((x) => x.id)).toEqual([late, ids[3]]);
    expect((await desk.deleteExchanges({ ids: [-1] })).ok).toBe(false);
  });

  it('an id is never given again: after the newest rows are deleted, a follower sees the next capture and a search finds it', async () => {
    const { desk, writer } = await engine();
    const w = writer();
    onTestFinished(() => w.close());
    const ids: number[] = [];
    for (const d of ['gone-1', 'gone-2', 'gone-3']) ids.push((await written(w, (tx) => tx.rows.record(row(d)))).value!);
    const cursor = must(await desk.followExchanges({ afterId: null }));
    expect(cursor.afterId).toBe(ids[2]);
    expect(must(await desk.deleteExchanges({ filter: {} }))).toMatchObject({ deleted: 3 });
    const next = (await written(w, (tx) => tx.rows.record(row('after-the-delete')))).value!;
    await written(w, (tx) => tx.rows.finish(next, answer(200)));
    expect(next).toBeGreaterThan(ids[2]!);
    const seen = must(await desk.followExchanges({ afterId: cursor.afterId }));
    expect(seen.completed.map((x) => x.id)).toEqual([next]);
    expect(must(await desk.listExchanges({ search: 'after-the-delete' })).items.map((x) => x.id)).toEqual([next]);
  });

  it('close commits what is queued, then refuses more writes', async () => {
    const { desk, writer } = await engine();
    const w = writer();
    const queued = written(w, (tx) => tx.rows.record(row('queued')));
    await w.close();
    expect((await queued).error).toBeNull();
    expect((await written(w, (tx) => tx.rows.record(row('late')))).error).toBeInstanceOf(Error);
    expect(must(await desk.listExchanges({ limit: 10 })).items.map((x) => x.depositId)).toEqual(['queued']);
  });
});
