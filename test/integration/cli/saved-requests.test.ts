// Saved requests: the composer's draft saved under a name in a profile (never with a signature or a
// stored secret in clear), exported as a file a team keeps, imported into another desk, and sent again
// with `send --saved`: the operator receives the same bytes, signed now.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli';
import { closeAfterTest } from '../../helpers/closing';
import { openDesk } from '../../helpers/desk';
import { must } from '../../helpers/must';
import { startOperator } from '../../helpers/operator';
import { tempDir } from '../../helpers/temp';

const SECRET = 'saved-requests-secret-0123456789';
const API_KEY = 'api-key-Heron-77';
// Odd spacing, key order and non-ASCII text: a re-serialization would change these bytes.
const BODY = Buffer.from('{ "userId":"user-saved", "depositId":"dep-saved-1","currency":"EUR",  "amount":7, "memo":"café ✓" }', 'utf8');
const BINARY = Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x7d]);

describe('saved requests', () => {
  it('keep no signature and no secret, export as a stable file, and send again byte for byte after an import', async () => {
    const operator = await startOperator({ secret: SECRET });
    closeAfterTest({ close: () => operator.close() });
    const home = tempDir();
    const desk = openDesk(home);
    must(await desk.saveProfile({ name: 'staging', secret: SECRET, apiKey: API_KEY, operatorUrl: operator.url }));
    must(await desk.useProfile('staging'));
    const headers: Array<[string, string]> = [
      ['content-type', 'application/json'],
      ['x-server-authorization', 'ab'.repeat(32)],
      ['x-api-key', API_KEY],
    ];
    const draft = { method: 'POST', path: '/platform/pay', headers, bodyBase64: BODY.toString('base64'), sourceId: null };
    const saved = must(await desk.saveRequest({ name: 'pay seven', draft, signature: 'resign' }));
    expect(saved.headers.map(([k]) => k)).toEqual(['content-type', 'x-api-key']);
    expect(saved.headers[1]![1]).not.toContain(API_KEY);
    expect(Buffer.from(saved.bodyBase64, 'base64').equals(BODY)).toBe(true);
    must(await desk.saveRequest({ name: 'binary', draft: { ...draft, bodyBase64: BINARY.toString('base64') }, signature: 'none' }));
    const keep = await desk.saveRequest({ name: 'kept', draft, signature: 'keep' });
    expect(keep.ok).toBe(false);

    const file = join(tempDir(), 'saved.json');
    const exported = await runCli(['--home', home, 'saved', 'export', file]);
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(SECRET);
    const json = JSON.parse(text) as { requests: Array<Record<string, unknown>> };
    expect(json.requests.map((r) => r.name)).toEqual(['binary', 'pay seven']);
    expect(Object.keys(json.requests[1]!)).toEqual(['name', 'method', 'path', 'signature', 'headers', 'body']);
    expect(json.requests[1]!.body).toEqual({ text: BODY.toString('utf8') });
    expect(json.requests[0]!.body).toEqual({ base64: BINARY.toString('base64') });
    expect(text).toBe(`${JSON.stringify(json, null, 2)}\n`);

    // Another desk (a teammate's), the same profile name and secret: import, then send.
    const other = tempDir();
    const setup = await runCli(['--home', other, 'profile', 'set', 'staging', '--secret-env', 'WD_SECRET', '--operator-url', operator.url], {
      env: { WD_SECRET: SECRET },
    });
    expect(setup.code, setup.stderr).toBe(0);
    const imported = await runCli(['--home', other, 'saved', 'import', file]);
    expect(imported.stdout).toBe('imported 2 saved requests\n');
    const again = await runCli(['--home', other, 'saved', 'export']);
    expect(again.stdout).toBe(text);
    const sent = await runCli(['--home', other, 'send', '--saved', 'pay seven', '--json']);
    expect(sent.code, sent.stderr).toBe(0);
    const received = operator.requests.at(-1)!;
    expect(received.path).toBe('/platform/pay');
    expect(received.body.equals(BODY)).toBe(true);
    expect(received.rawSignatureValid).toBe(true);

    const list = await runCli(['--home', other, 'saved', 'list']);
    expect(list.stdout).toContain('pay seven  POST /platform/pay  signature resign');
    expect((await runCli(['--home', other, 'saved', 'remove', 'binary'])).code).toBe(0);
    expect((await runCli(['--home', other, 'saved', 'remove', 'binary'])).code).toBe(2);
    expect((await runCli(['--home', other, 'send', '--saved', 'binary'])).stderr).toContain('no saved request "binary"');
  }, 240_000);

  it("move into another profile's callback prefix on import, say so, and reach that profile's operator", async () => {
    const lose = closeAfterTest(await startOperator({ secret: SECRET, callbackPrefix: '/lose' }));
    const home = tempDir();
    const desk = openDesk(home);
    must(await desk.saveProfile({ name: 'acme', secret: SECRET, callbackPrefix: '/acme' }));
    must(await desk.saveProfile({ name: 'lose', secret: SECRET, callbackPrefix: '/lose', operatorUrl: lose.url }));
    const body = (fields: Record<string, unknown>) => Buffer.from(JSON.stringify({ userId: 'u-moved', depositId: 'dep-moved', ...fields })).toString('base64');
    const draft = (path: string, bodyBase64: string) => ({
      method: 'POST',
      path,
      headers: [['content-type', 'application/json']] as Array<[string, string]>,
      bodyBase64,
      sourceId: null,
    });
    must(await desk.saveRequest({ name: 'pay', profile: 'acme', draft: draft('/acme/pay', body({ amount: 5, currency: 'EUR' })), signature: 'resign' }));
    must(await desk.saveRequest({ name: 'settle', profile: 'acme', draft: draft('/acme/results?via=saved', body({ result: 'REFUND' })), signature: 'resign' }));
    must(await desk.saveRequest({ name: 'odd hook', profile: 'acme', draft: draft('/elsewhere/hook', body({})), signature: 'none' }));

    const file = join(tempDir(), 'acme.json');
    const exported = await runCli(['--home', home, 'saved', 'export', file, '--profile', 'acme']);
    expect(exported.code, exported.stderr).toBe(0);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { from: unknown }).from).toEqual({ profile: 'acme', callbackPrefix: '/acme' });

    const imported = await runCli(['--home', home, 'saved', 'import', file, '--profile', 'lose']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toBe(
      [
        'imported 3 saved requests',
        'not re-targeted "odd hook": /elsewhere/hook starts with no known callback prefix, kept as is',
        `re-targeted "pay": /acme/pay -> /lose/pay (the prefix /acme replaced by lose's /lose)`,
        `re-targeted "settle": /acme/results?via=saved -> /lose/results?via=saved (the prefix /acme replaced by lose's /lose)`,
        '',
      ].join('\n'),
    );
    const listed = await runCli(['--home', home, 'saved', 'list', '--profile', 'lose']);
    expect(listed.stdout).toContain('pay  POST /lose/pay  signature resign');

    for (const name of ['pay', 'settle']) {
      const sent = await runCli(['--home', home, 'send', '--saved', name, '--profile', 'lose']);
      expect(sent.code, sent.stderr).toBe(0);
      expect(sent.stdout).toContain('answer: 200');
    }
    expect(lose.requests.map((r) => [r.path, r.status])).toEqual([
      ['/lose/pay', 200],
      ['/lose/results?via=saved', 200],
    ]);
    // The target's own answer: its books hold the deposit the saved pay made, refunded by the saved result.
    expect(lose.deposits.get('dep-moved')).toEqual({ userId: 'u-moved', amount: 5, settled: 'REFUND' });
  }, 240_000);
});
