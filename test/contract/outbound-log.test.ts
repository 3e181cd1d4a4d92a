// One contract, two engines: what the desk itself writes to the exchange log and reads back from it.
// Imports, replays of a capture, a follow-up built from a captured pay, token requests, a conformance
// check and its report: the same cases against the data directory's SQLite and a real PostgreSQL, where
// a second desk on the same log (another window, or a teammate's laptop) reads what the first wrote.
import { createHash } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ANSWER_NOTES_BYTES } from '../../src-main/core/capture/bounds';
import { createDesk, type Desk } from '../../src-main/core/desk';
import { sign } from '../../src-main/core/signing';
import { connectionOf } from '../../src-main/core/store/sqlite';
import { connectPostgres } from '../../src-main/core/store/postgres';
import { logOf, storeOf } from '../helpers/desk';
import { toDetails } from '../../src-main/core/store/rows/exchange-rows';
import { must } from '../helpers/must';
import { startOperator } from '../helpers/operator';
import { migratedDatabase, teamKeyFile, usePostgres } from '../helpers/postgres';
import { tempDir } from '../helpers/temp';
import { OPERATOR_ID, startTokenEndpoint } from '../integration/token/token-endpoint';
import { filesHolding } from '../security/helpers/canary';

const server = usePostgres();
const SECRET = 'outbound-contract-secret';
const API_KEY = 'ak_outbound_contract_5e4d3c2b1a09';

interface Engine {
  desk: Desk;
  /** A second desk on the same log. */
  another(): Promise<Desk>;
  /** The exchanges rows the engine holds. */
  rows(): Promise<number>;
  /** Whether anything the engine stored holds `text` in clear, hex or base64. */
  holds(text: string): Promise<boolean>;
}

async function withProfile(desk: Desk, extra: Record<string, string> = {}): Promise<Desk> {
  onTestFinished(() => desk.close());
  must(await desk.saveProfile({ name: 'acme', secret: SECRET, ...extra }));
  must(await desk.useProfile('acme'));
  return desk;
}

async function sqliteEngine(profile: Record<string, string>): Promise<Engine> {
  const home = tempDir();
  const desk = await withProfile(createDesk({ home }), profile);
  return {
    desk,
    another: async () => withProfile(createDesk({ home })),
    rows: async () => connectionOf(storeOf(desk)).prepare('SELECT count(*) FROM exchanges').pluck().get() as number,
    holds: async (text) => filesHolding(home, text).length > 0,
  };
}

async function postgresEngine(profile: Record<string, string>): Promise<Engine> {
  const url = await migratedDatabase(server());
  const desk = await withProfile(createDesk({ home: tempDir(), database: url, keyFile: teamKeyFile(url) }), profile);
  const query = async <T>(sql: string): Promise<T[]> => {
    const c = await connectPostgres(url);
    try {
      return (await c.query(sql)).rows as T[];
    } finally {
      await c.end();
    }
  };
  return {
    desk,
    another: async () => withProfile(createDesk({ home: tempDir(), database: url, keyFile: teamKeyFile(url) })),
    rows: async () => Number((await query<{ n: string }>('SELECT count(*) AS n FROM exchanges'))[0]!.n),
    holds: async (text) => {
      // A row as text shows its bytea columns in hex: a form inside a body is found by its hex. The team's
      // profiles are there too: their secrets only sealed.
      const dump = (
        await query<{ row: string }>(
          'SELECT e::text AS row FROM exchanges e UNION ALL SELECT r::text FROM check_reports r UNION ALL SELECT p::text FROM profiles p',
        )
      )
        .map((r) => r.row)
        .join('\n')
        .toLowerCase();
      const forms = [text, Buffer.from(text).toString('hex'), Buffer.from(text).toString('base64')];
      return forms.some((f) => dump.includes(f.toLowerCase()) || dump.includes(Buffer.from(f).toString('hex')));
    },
  };
}

const ENGINES: Array<[string, (profile: Record<string, string>) => Promise<Engine>]> = [
  ['SQLite', sqliteEngine],
  ['PostgreSQL', postgresEngine],
];

const payBody = (depositId: string, amount = 100): string => JSON.stringify({ userId: 'u-out', depositId, currency: 'EUR', amount });

/** A HAR of signed pays, as a browser's DevTools saves one. */
function harOf(depositIds: string[]): string {
  const entries = depositIds.map((d) => {
    const body = payBody(d);
    return {
      startedDateTime: new Date().toISOString(),
      time: 2,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:8080/platform/pay',
        httpVersion: 'HTTP/1.1',
        headers: [
          { name: 'content-type', value: 'application/json' },
          { name: 'x-server-authorization', value: sign(Buffer.from(body), SECRET) },
        ],
        queryString: [],
        postData: { mimeType: 'application/json', text: body },
        headersSize: -1,
        bodySize: Buffer.byteLength(body),
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        headers: [{ name: 'content-type', value: 'application/json' }],
        content: { size: 15, mimeType: 'application/json', text: '{"status":"ok"}' },
        headersSize: -1,
        bodySize: 15,
      },
    };
  });
  return JSON.stringify({ log: { version: '1.2', creator: { name: 'contract', version: '1' }, entries } });
}

describe.each(ENGINES)('what the desk sends, in the exchange log on %s', (_name, engine) => {
  it('imports a HAR whole, replays a capture and sends its follow-up, each linked to its source', async () => {
    const operator = await startOperator({ secret: SECRET });
    onTestFinished(() => operator.close());
    const { desk, another, rows } = await engine({ operatorUrl: operator.url });

    const imported = must(await desk.importHar(harOf(['d-out-1', 'd-out-2', 'd-out-3']), {}));
    expect(imported.imported).toBe(3);
    expect(await rows()).toBe(3);
    const [first] = imported.ids;
    const captured = must(await desk.getExchange(first!));
    expect(captured).toMatchObject({ direction: 'inbound', origin: 'har-import', depositId: 'd-out-1', signature: { verdict: 'valid' }, profile: 'acme' });

    // The capture sent again as it was: the same bytes, signed as captured, recorded beside it.
    const replayed = must(await desk.replay({ sourceId: first! }));
    expect(replayed).toMatchObject({ direction: 'outbound', origin: 'replay', sourceId: first, response: { status: 200 } });
    expect(operator.requests.at(-1)!.body.toString()).toBe(payBody('d-out-1'));
    expect(operator.requests.at(-1)!.rawSignatureValid).toBe(true);

    // A refund built from the captured pay, re-signed, sent.
    const refund = must(await desk.draftFollowUp(first!, 'REFUND'));
    expect(JSON.parse(Buffer.from(refund.bodyBase64, 'base64').toString())).toMatchObject({ depositId: 'd-out-1', result: 'REFUND' });
    const sent = must(await desk.send({ draft: refund, signature: 'resign' }));
    expect(sent).toMatchObject({ origin: 'send', sourceId: first, kind: 'results', response: { status: 200 } });
    expect(operator.requests.at(-1)!.rawSignatureValid).toBe(true);

    // The log links them: the capture names what was derived from it, the deposit's timeline holds all three.
    expect(must(await desk.getExchange(first!)).derivedIds).toEqual([replayed.id, sent.id]);
    const timeline = must(await desk.getTimeline('d-out-1'));
    expect(timeline.entries.map((x) => x.id)).toEqual([first, replayed.id, sent.id]);
    const diff = must(await desk.diffExchanges(first!, replayed.id));
    expect(diff.filter((e) => e.area === 'body')).toEqual([]);
    expect(await rows()).toBe(5);
    // Many read at once (an export's slice): the rows that exist, each made the detail one read of it gives.
    const asked = [sent.id, 999_999, first!, replayed.id];
    const found = await logOf(desk).detailRows(asked);
    expect(found.rows).toHaveLength(3);
    expect(toDetails(asked, found)).toEqual([
      must(await desk.getExchange(sent.id)),
      must(await desk.getExchange(first!)),
      must(await desk.getExchange(replayed.id)),
    ]);

    // Another desk on the same log reads what this one sent.
    const teammate = await another();
    expect(must(await teammate.getExchange(sent.id))).toMatchObject({ sourceId: first, response: { status: 200 } });
    expect(must(await teammate.draftFromExchange(first!)).bodyBase64).toBe(Buffer.from(payBody('d-out-1')).toString('base64'));
  });

  it('redelivers the captures a filter selects, once, and selects none of them again', async () => {
    const operator = await startOperator({ secret: SECRET });
    onTestFinished(() => operator.close());
    const { desk, rows } = await engine({ operatorUrl: operator.url });
    const deposits = ['d-re-1', 'd-re-2', 'd-re-3', 'd-re-4'];
    const { ids } = must(await desk.importHar(harOf(deposits), {}));

    const selection = must(await desk.selectRedelivery({ idRanges: [[ids[1]!, ids[3]!]] }));
    expect(selection).toMatchObject({ count: 3, skipped: 0, nextAfterId: null });
    expect(selection.items.map((x) => x.id)).toEqual(ids.slice(1));
    const report = must(await desk.redeliver({ filter: { idRanges: [[ids[1]!, ids[3]!]] }, rate: 1000 }));
    expect(report).toMatchObject({ selected: 3, sent: 3, ok: 3, failed: 0, stopped: null });
    expect(operator.requests.map((r) => (JSON.parse(r.body.toString()) as { depositId: string }).depositId)).toEqual(deposits.slice(1));
    expect(operator.requests.every((r) => r.rawSignatureValid)).toBe(true);
    expect(await rows()).toBe(7);

    // Delivered with a 2XX: a second selection skips them, unless asked again.
    expect(must(await desk.selectRedelivery({}))).toMatchObject({ count: 1, skipped: 3 });
    expect(must(await desk.selectRedelivery({ again: true }))).toMatchObject({ count: 4, skipped: 0 });
    // Another profile's captures are refused by id, not sent with this profile's secret.
    must(await desk.saveProfile({ name: 'other', secret: 'other-secret', operatorUrl: operator.url, callbackPrefix: '/other' }));
    const foreign = await desk.selectRedelivery({ idRanges: [[ids[0]!, ids[0]!]], profile: 'other' });
    expect(foreign).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^Not profile "other"'s: #\d+ \(profile "acme"\)/) } });
  });

  it('records token requests with the API key nowhere in the log, and lists them', async () => {
    const endpoint = await startTokenEndpoint(API_KEY);
    onTestFinished(() => endpoint.close());
    const { desk, another, holds } = await engine({ baseUrl: endpoint.url, operatorId: OPERATOR_ID, apiKey: API_KEY });
    const ok = must(await desk.requestToken({ userId: 'u1', displayName: 'One' }));
    expect(ok.token).toBeTruthy();
    endpoint.mode = 'echo-key';
    const echoed = must(await desk.requestToken({ userId: 'u2', displayName: 'Two' }));
    expect(echoed.body).toContain('[redacted sha256:');

    endpoint.mode = 'not-json';
    const garbled = must(await desk.requestToken({ userId: 'u3', displayName: 'Three' }));

    const history = must(await (await another()).listTokenHistory());
    expect(history.map((x) => x.id)).toEqual([garbled.exchangeId, echoed.exchangeId, ok.exchangeId]);
    // What is wrong with a 2XX answer is added to its row once read, after the row was written.
    expect(must(await desk.getExchange(garbled.exchangeId)).findings.length).toBeGreaterThan(0);
    expect(must(await desk.getExchange(ok.exchangeId)).findings).toEqual([]);
    // An answer that makes hundreds of findings keeps them within the room left for them.
    endpoint.mode = 'many-fields';
    const wide = must(await desk.requestToken({ userId: 'u4', displayName: 'Four' }));
    const kept = must(await desk.getExchange(wide.exchangeId)).findings;
    expect(kept.length).toBeGreaterThan(1);
    expect(kept.at(-1)!.message).toMatch(/more findings not stored/);
    expect(Buffer.byteLength(JSON.stringify(kept))).toBeLessThanOrEqual(ANSWER_NOTES_BYTES);
    expect(await holds(API_KEY)).toBe(false);
    // The search itself works: the user id sent is in the log.
    expect(await holds('"userId":"u1"')).toBe(true);
  });

  it('keeps a conformance check report with the log whose exchanges its steps name', async () => {
    const operator = await startOperator({ secret: SECRET });
    onTestFinished(() => operator.close());
    const { desk, another, rows } = await engine({ operatorUrl: operator.url });
    const report = must(await desk.runCheck({ to: operator.url, userId: 'check-user' }));
    const stepIds = [...new Set(report.checks.flatMap((c) => c.exchangeIds))];
    expect(stepIds.length).toBeGreaterThan(5);
    expect(await rows()).toBe(stepIds.length);

    const teammate = await another();
    expect(must(await teammate.listCheckReports()).map((r) => r.id)).toEqual([report.id]);
    expect(must(await teammate.getCheckReport(report.id)).checks).toEqual(report.checks);
    const markdown = must(await teammate.exportCheckReport(report.id, 'markdown'));
    expect(markdown).toContain(`# Conformance check #${report.id}`);
    const har = JSON.parse(must(await teammate.exportHar({ reportId: report.id }))) as { log: { entries: unknown[] } };
    expect(har.log.entries).toHaveLength(stepIds.length);
    // The same report, byte for byte, from either desk.
    const digest = async (d: Desk) =>
      createHash('sha256')
        .update(must(await d.exportCheckReport(report.id, 'json')))
        .digest('hex');
    expect(await digest(teammate)).toBe(await digest(desk));
  });
});
