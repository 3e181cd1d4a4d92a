// The PostgreSQL writer deciding a group of sandbox callbacks: the books the group reads are loaded in as
// many round trips as the longest chain of reads (a deposit, then its user), not one or two a callback.
// Groups grow while the database is slow; a load a callback, each holding the rows read so far locked,
// would make each group slower than the last. The decisions stay in the group's order.
import { describe, expect, it, onTestFinished } from 'vitest';
import type pg from 'pg';
import { connectPostgres } from '../../../src-main/core/store/postgres';
import { PgCaptureWriter } from '../../../src-main/core/store/postgres/capture-writer';
import { SandboxOperator, type SandboxCall } from '../../../src-main/core/sandbox';
import { storeOf } from '../../../src-main/core/desk/seams';
import { createDesk } from '../../../src-main/core/desk';
import { inboundRow } from '../../helpers/exchanges';
import { migratedDatabase, usePostgres } from '../../helpers/postgres';
import { tempDir } from '../../helpers/temp';

const server = usePostgres();
const STARTING_BALANCE = 1_000;
const CALLBACKS = 20;

/** A real connection whose statements' texts are kept, to count the books' loads among them. */
async function countedConnection(url: string, texts: string[]): Promise<pg.Client> {
  const client = await connectPostgres(url, { numbers: true });
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const first = args[0] as string | { text: string };
    texts.push(typeof first === 'string' ? first : first.text);
    return query(...args);
  }) as typeof client.query;
  return client;
}

const payCall = (i: number): SandboxCall => ({
  kind: 'pay',
  method: 'POST',
  body: Buffer.from(JSON.stringify({ userId: 'u-1', depositId: `d-${i}`, currency: 'EUR', amount: 100 })),
  verdict: null,
  secretConfigured: false,
  at: new Date().toISOString(),
  book: 'acme',
});

describe('the PostgreSQL writer deciding a group of sandbox callbacks', () => {
  it('loads the books the whole group reads in two round trips, and decides each callback in order', async () => {
    const url = await migratedDatabase(server());
    // The operator decides with the books the writer hands it; its own (a desk's) are not read here.
    const desk = createDesk({ home: tempDir() });
    onTestFinished(() => desk.close());
    const operator = new SandboxOperator(storeOf(desk).sandbox);
    const texts: string[] = [];
    let balanceReads = 0;
    const writer = new PgCaptureWriter({
      connect: () => countedConnection(url, texts),
      sandbox: { operator, startingBalance: () => (balanceReads++, STARTING_BALANCE) },
    });
    onTestFinished(() => writer.close());

    // Queued in one turn: one group.
    const answers = await Promise.all(
      Array.from(
        { length: CALLBACKS },
        (_, i) =>
          new Promise<{ id: number; status: number; body: string }>((resolve, reject) =>
            writer.write(
              (tx) => {
                const decided = tx.sandbox(payCall(i));
                const id = tx.rows.record(inboundRow({ body: Buffer.from(payCall(i).body) }));
                return { id, status: decided.answer.status, body: JSON.stringify(decided.answer.body) };
              },
              (err, value) => (err === null && value ? resolve(value) : reject(err)),
            ),
          ),
      ),
    );

    const loads = texts.filter((t) => /FROM sandbox_(users|deposits)\b.*FOR UPDATE/s.test(t));
    expect(loads).toHaveLength(2);
    expect(texts.filter((t) => t === 'BEGIN')).toHaveLength(1);
    // In order: ten pays of 100 from 1,000, then refusals; each row's id after the last.
    expect(answers.map((a) => a.status)).toEqual([...Array(10).fill(200), ...Array(10).fill(answers[10]!.status)]);
    expect(answers[10]!.status).not.toBe(200);
    expect(answers.map((a) => a.id)).toEqual([...answers.map((a) => a.id)].sort((a, b) => a - b));
    // The desk's starting balance read once for the group; a group that only records rows never reads it.
    expect(balanceReads).toBe(1);
    await new Promise<number>((resolve, reject) =>
      writer.write(
        (tx) => tx.rows.record(inboundRow()),
        (err, id) => (err === null ? resolve(id as number) : reject(err)),
      ),
    );
    expect(balanceReads).toBe(1);
    const c = await connectPostgres(url, { numbers: true });
    try {
      const user = await c.query<{ balance: number }>("SELECT balance FROM sandbox_users WHERE profile = 'acme' AND user_id = 'u-1'");
      expect(user.rows[0]!.balance).toBe(0);
      const paid = await c.query<{ deposit_id: string }>("SELECT deposit_id FROM sandbox_deposits WHERE profile = 'acme' ORDER BY deposit_id");
      expect(paid.rows.map((r) => r.deposit_id).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `d-${i}`).sort());
    } finally {
      await c.end();
    }
  });
});
