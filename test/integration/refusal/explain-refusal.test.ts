// The refusal explainer against operators that verify a re-serialization of the body instead of the
// bytes they received: it names the serializer each one uses (Node's JSON.stringify, Python's
// json.dumps, PHP's trim), says when nothing was accepted, and records every probe as an exchange
// derived from the refused one, each signed over exactly the bytes it carried.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/core/desk';
import { openDesk } from '../../helpers/desk';
import { must } from '../../helpers/must';
import { startRecorder, type Recorder } from '../../helpers/servers';
import { closeAfterTest } from '../../helpers/closing';
import { send, startProxy } from '../proxy/helpers';
import { expressOperator, pythonOperator, refusingOperator, trimmingOperator } from './operators';

const SECRET = 'refusal-secret-3b9f';
const sign = (body: string | Buffer): string => createHmac('sha256', SECRET).update(body).digest('hex');

// How a platform may write a pay: spaced, compact, with a trailing newline.
const SPACED = '{"userId": "u-1", "depositId": "d-1", "currency": "EUR", "amount": 100}';
const COMPACT = '{"userId":"u-1","depositId":"d-2","currency":"EUR","amount":100}';
const NEWLINE = '{"userId":"u-1","depositId":"d-3","currency":"EUR","amount":100}\n';
// Spaced, with a slash and a non-ASCII letter: every common encoder writes it differently.
const VARIED = '{"userId": "café/7", "depositId": "d-4", "currency": "EUR", "amount": 100}';

/** Sends a correctly signed pay from the desk (as a check or a replay does) and returns the refused exchange's id. */
async function refusedSend(desk: Desk, operatorUrl: string, body: string): Promise<number> {
  const sent = must(
    await desk.send({
      draft: {
        method: 'POST',
        path: '/platform/pay',
        headers: [['Content-Type', 'application/json']],
        bodyBase64: Buffer.from(body).toString('base64'),
        sourceId: null,
      },
      to: operatorUrl,
      signature: 'resign',
    }),
  );
  expect(sent.signature.verdict).toBe('valid');
  expect(sent.response?.status).toBe(401);
  return sent.id;
}

function expectSignedOverTheirBytes(recorder: Recorder): void {
  expect(recorder.received.length).toBeGreaterThan(1);
  for (const r of recorder.received) expect(r.headers['x-server-authorization']).toBe(sign(r.body));
}

async function withProfile(operatorUrl?: string): Promise<Desk> {
  const desk = openDesk();
  must(await desk.saveProfile({ name: 'op', secret: SECRET, ...(operatorUrl ? { operatorUrl, upstream: operatorUrl } : {}) }));
  return desk;
}

describe('why the operator refuses a correctly signed callback', () => {
  it('names compact JSON for an operator that verifies JSON.stringify(req.body), and records each probe as derived from the refused send', async () => {
    const op = await expressOperator(SECRET);
    const desk = await withProfile(op.url);
    const id = await refusedSend(desk, op.url, SPACED);
    const explained = must(await desk.explainRefusal(id));
    expect(explained.finding).toBe('reserialization');
    expect(explained.accepted?.variant).toBe('compact-json');
    expect(explained.explanation).toContain(
      "the operator verifies a re-serialization of the body (compact JSON, like JSON.stringify(req.body)), not the bytes received; the platform's bytes will be refused whenever they are not compact".replace(
        /^t/,
        'T',
      ),
    );
    // The refused bytes first (refused again: the refusal is reproducible), then compact JSON, accepted; nothing after it.
    expect(explained.probes.map((p) => [p.variant, p.status, p.accepted])).toEqual([
      ['as-received', 401, false],
      ['compact-json', 200, true],
    ]);
    expectSignedOverTheirBytes(op);
    expect(op.received.at(-1)!.body.toString()).toBe(JSON.stringify(JSON.parse(SPACED)));
    for (const probe of explained.probes) {
      const row = must(await desk.getExchange(probe.exchangeId));
      expect(row).toMatchObject({ sourceId: id, origin: 'replay', direction: 'outbound', signature: { verdict: 'valid' } });
      expect(row.tags).toEqual(expect.arrayContaining(['refusal-probe', `refusal-probe:${probe.variant}`]));
    }
    expect(must(await desk.getExchange(id)).derivedIds).toEqual(explained.probes.map((p) => p.exchangeId));
  });

  it("names Python's json.dumps default for an operator in Python's standard library", { timeout: 20_000 }, async () => {
    const op = await pythonOperator(SECRET);
    const desk = await withProfile(op.url);
    const id = await refusedSend(desk, op.url, COMPACT);
    const explained = must(await desk.explainRefusal(id));
    expect(explained.finding).toBe('reserialization');
    expect(explained.accepted?.variant).toBe('python-json-dumps');
    expect(explained.explanation).toContain("Python's json.dumps");
    expect(explained.probes.filter((p) => p.accepted).map((p) => p.variant)).toEqual(['python-json-dumps']);
  });

  it("names PHP's trim() for an operator that trims the body before it verifies", async () => {
    const op = await trimmingOperator(SECRET);
    const desk = await withProfile(op.url);
    const id = await refusedSend(desk, op.url, NEWLINE);
    const explained = must(await desk.explainRefusal(id));
    expect(explained.accepted?.variant).toBe('trimmed');
    expect(explained.explanation).toContain('start or end with whitespace');
    // Trimmed, this body is also its compact form: the explanation says so rather than pick one silently.
    expect(explained.explanation).toContain('also compact JSON');
    expectSignedOverTheirBytes(op);
  });

  it('says none of the common re-serializations was accepted by an operator that refuses everything', async () => {
    const op = await refusingOperator();
    const desk = await withProfile(op.url);
    const id = await refusedSend(desk, op.url, VARIED);
    const explained = must(await desk.explainRefusal(id));
    expect(explained.finding).toBe('none-accepted');
    expect(explained.accepted).toBeNull();
    expect(explained.explanation).toMatch(/^None of the common re-serializations was accepted/);
    // Every probe distinct in bytes, every one refused, every one signed over its own bytes.
    const bodies = op.received.slice(1).map((r) => r.body.toString('hex'));
    expect(new Set(bodies).size).toBe(bodies.length);
    expect(explained.probes.map((p) => p.variant)).toEqual([
      'as-received',
      'compact-json',
      'python-json-dumps',
      'python-json-dumps-compact',
      'php-json-encode',
      'sorted-keys',
    ]);
    expect(explained.probes.every((p) => p.status === 401 && !p.accepted)).toBe(true);
    expectSignedOverTheirBytes(op);
  });

  it('says the refusal was not about the body when the same bytes are accepted now', async () => {
    // An operator that refused once (a passing failure) and accepts from then on.
    let seen = 0;
    const op = closeAfterTest(
      await startRecorder((_req, _raw, res) => {
        seen += 1;
        res.writeHead(seen === 1 ? 401 : 200, { 'content-type': 'application/json' }).end('{}');
      }),
    );
    const desk = await withProfile(op.url);
    const id = await refusedSend(desk, op.url, SPACED);
    const explained = must(await desk.explainRefusal(id));
    expect(explained).toMatchObject({ finding: 'accepted-as-sent', accepted: null });
    expect(explained.explanation).toContain('the refusal was not about how the body is written');
    expect(explained.probes.map((p) => p.variant)).toEqual(['as-received']);
    expect(op.received.at(-1)!.body.toString()).toBe(SPACED);
  });

  it('explains a forwarded capture that the operator refused with a valid signature, sending the probes to the upstream', async () => {
    const op = await expressOperator(SECRET);
    const desk = await withProfile(op.url);
    const proxy = await startProxy(desk, { upstream: op.url });
    const reply = await send(proxy.url, { headers: { 'content-type': 'application/json', 'x-server-authorization': sign(SPACED) }, body: SPACED });
    expect(reply.status).toBe(401);
    const capture = must(await desk.listExchanges({ direction: 'inbound', limit: 1 })).items[0]!;
    expect(capture.signature.verdict).toBe('valid');
    const explained = must(await desk.explainRefusal(capture.id));
    expect(explained.accepted?.variant).toBe('compact-json');
    expect(op.received.map((r) => r.url)).toEqual(['/platform/pay', '/platform/pay', '/platform/pay']);
  });

  it('refuses to explain what was not a refusal of a valid signature, and asks before sending for a production profile', async () => {
    const op = await expressOperator(SECRET);
    const desk = await withProfile(op.url);
    const accepted = must(
      await desk.send({
        draft: { method: 'POST', path: '/platform/pay', headers: [], bodyBase64: Buffer.from(COMPACT).toString('base64'), sourceId: null },
        to: op.url,
      }),
    );
    expect(await desk.explainRefusal(accepted.id)).toMatchObject({ ok: false, error: { code: 'bad-input', message: expect.stringContaining('not refused') } });
    const badlySigned = must(
      await desk.send({
        draft: { method: 'POST', path: '/platform/pay', headers: [], bodyBase64: Buffer.from(SPACED).toString('base64'), sourceId: null },
        to: op.url,
        signature: 'invalid',
      }),
    );
    expect(await desk.explainRefusal(badlySigned.id)).toMatchObject({
      ok: false,
      error: { code: 'bad-input', message: expect.stringContaining('right to refuse') },
    });
    const refused = await refusedSend(desk, op.url, SPACED);
    must(await desk.saveProfile({ name: 'op', production: true }));
    const before = op.received.length;
    expect(await desk.explainRefusal(refused)).toMatchObject({ ok: false, error: { code: 'needs-confirmation' } });
    expect(op.received.length).toBe(before);
    expect(must(await desk.explainRefusal(refused, { confirmedProduction: true })).accepted?.variant).toBe('compact-json');
  });
});
