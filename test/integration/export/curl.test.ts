// Copy as cURL, run for real: bash runs the command, curl sends it, and a stand-in operator checks
// that the signature matches the exact bytes it received.
import { execFile } from 'node:child_process';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import { sign, verify } from '../../../src-main/core/signing';
import type { Draft } from '../../../src-main/shared/model';
import { capture } from '../../helpers/captures';
import { inboundRow } from '../../helpers/exchanges';
import { startRecorder, type Recorded, type Recorder } from '../../helpers/servers';
import { tempDir, tempDirForSuite } from '../../helpers/temp';
import { logOf } from '../../helpers/desk';

const NO_KEYS = { depositId: null, userId: null, result: null, gameId: null, amount: null, currency: null, tournamentId: null };

const SECRET = 'curl-signing-secret';

/** What the stand-in operator got, with its verdict on the signature over the exact bytes. */
type Received = Recorded & { verdict: string };

const verdictOf = (headers: IncomingHttpHeaders, body: Buffer): string => verify(body, headers['x-server-authorization'] as string | undefined, SECRET).verdict;

let operator: Recorder;
let host: string;
let desk: Desk;
let remove: () => void;

beforeAll(async () => {
  operator = await startRecorder((req, body, res) => {
    const verdict = verdictOf(req.headers, body);
    res.writeHead(verdict === 'valid' ? 200 : 401, { 'content-type': 'application/json' }).end(`{"verdict":"${verdict}"}`);
  });
  host = `127.0.0.1:${operator.port}`;
  const temp = tempDirForSuite();
  remove = temp.remove;
  desk = createDesk({ home: temp.dir });
  const saved = await desk.saveProfile({ name: 'p', secret: SECRET, operatorUrl: `http://${host}` });
  expect(saved.ok).toBe(true);
});

afterAll(async () => {
  await desk.close();
  remove();
  await operator.close();
});

beforeEach(() => {
  operator.received.length = 0;
});

/** Runs the copied command in bash (what a user pastes it into) and returns what the operator got. */
function runInBash(command: string): Promise<Received> {
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', `${command} --silent --show-error --output /dev/null`], (err, _stdout, stderr) => {
      if (err) return reject(new Error(`curl failed: ${stderr || err.message}\n${command}`));
      if (operator.received.length !== 1) return reject(new Error(`expected one request, got ${operator.received.length}`));
      const got = operator.received[0]!;
      resolve({ ...got, verdict: verdictOf(got.headers, got.body) });
    });
  });
}

async function curlFor(id: number): Promise<string> {
  const r = await desk.curlFor(id);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const bodies: Array<[string, Buffer]> = [
  ['compact JSON', Buffer.from('{"userId":"u1","depositId":"d-c1","currency":"EUR","amount":10}')],
  ['text with quotes, newlines, $ and backslashes', Buffer.from(`{\n  "userId": "o'brien \\"$HOME\\" \`id\`",\n  "depositId": "d-c2", "note": "100%"\n}\n`)],
  ['UTF-8 beyond ASCII', Buffer.from('{"userId":"zoë 🎲","depositId":"d-c3","currency":"€","amount":1}')],
  [
    'bytes that are not UTF-8, with NUL and CR',
    Buffer.concat([Buffer.from('{"userId":"u'), Buffer.from([0xe9, 0x00, 0xff, 0x0d, 0x0a, 0x27, 0x5c, 0x25]), Buffer.from('"}')]),
  ],
  ['a body that starts with @', Buffer.from('@/etc/passwd')],
  ['bytes that start with a dash', Buffer.from([0x2d, 0x2d, 0xff, 0x09])],
  ['tabs and a BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{\t"userId":\t"u1"}')])],
];

describe('copy as cURL', () => {
  it.each(bodies)('reproduces a capture with %s byte for byte, signature included', async (_name, body) => {
    const id = await capture(desk, {
      body,
      signature: { secret: SECRET },
      host,
      extraHeaders: [
        ['X-Trace', 'a b'],
        ['x-trace', "it's"],
      ],
    });
    const command = await curlFor(id);
    const got = await runInBash(command);
    expect(got.body.equals(body)).toBe(true);
    expect(got.verdict).toBe('valid');
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/platform/pay');
    expect(got.headers['content-type']).toBe('application/json');
    // Repeated headers arrive in order, each one.
    const traces = got.rawHeaders.filter((_, i) => i % 2 === 0 && got.rawHeaders[i]!.toLowerCase() === 'x-trace').length;
    expect(traces).toBe(2);
    expect(got.headers['x-trace']).toBe("a b, it's");
  });

  it('keeps an odd path and query exactly (no globbing, no dot-segment folding)', async () => {
    const id = await capture(desk, { body: '{}', path: '/a/../platform/pay', query: 'q=[1]&r={x}&s=%2F', signature: { secret: SECRET }, host });
    const command = await curlFor(id);
    expect(command).toContain('--globoff');
    expect(command).toContain('--path-as-is');
    const got = await runInBash(command);
    expect(got.url).toBe('/a/../platform/pay?q=[1]&r={x}&s=%2F');
    expect(got.verdict).toBe('valid');
  });

  it('sends no invented Content-Type and keeps an empty POST body as Content-Length 0', async () => {
    const id = await logOf(desk).write((rows) =>
      rows.record(
        inboundRow({
          headers: [
            ['Host', host],
            ['Content-Length', '0'],
          ],
          body: new Uint8Array(),
          size: 0,
          remoteAddress: null,
          signature: null,
          keys: NO_KEYS,
        }),
      ),
    );
    const got = await runInBash(await curlFor(id));
    expect(got.headers['content-type']).toBeUndefined();
    expect(got.headers['content-length']).toBe('0');
    expect(got.body.length).toBe(0);
    expect(got.verdict).toBe('missing');
  });

  it('goes to the target of an outbound exchange', async () => {
    const body = Buffer.from('{"result":"LOSE","userId":"u1","depositId":"d-o","roomId":"r","gameId":"blocks"}');
    const id = await logOf(desk).write((rows) =>
      rows.record(
        inboundRow({
          direction: 'outbound',
          kind: 'results',
          origin: 'replay',
          path: '/platform/results',
          query: 'from=desk',
          target: `http://${host}/platform/results?from=desk`,
          headers: [
            ['Host', 'somewhere-else.example'],
            ['content-type', 'application/json'],
            ['x-server-authorization', sign(body, SECRET)],
          ],
          body,
          size: body.length,
          remoteAddress: null,
          signature: null,
          keys: NO_KEYS,
        }),
      ),
    );
    const command = await curlFor(id);
    expect(command).not.toContain('somewhere-else');
    const got = await runInBash(command);
    expect(got.url).toBe('/platform/results?from=desk');
    expect(got.verdict).toBe('valid');
  });

  it('answers not-found for an unknown exchange', async () => {
    const r = await desk.curlFor(424242);
    expect(r.ok ? null : r.error.code).toBe('not-found');
  });
});

describe('copy as a signed cURL (composer drafts)', () => {
  const body = Buffer.concat([
    Buffer.from('{"userId":"u1","depositId":"d-draft","currency":"EUR","amount":5,"x":"'),
    Buffer.from([0xff, 0x00]),
    Buffer.from('"}'),
  ]);
  const draft = (): Draft => ({
    method: 'post',
    path: '/platform/pay?via=draft',
    headers: [
      ['Content-Type', 'application/json'],
      ['x-server-authorization', 'stale'],
    ],
    bodyBase64: body.toString('base64'),
    sourceId: null,
  });

  async function draftCurl(options: Parameters<Desk['curlForDraft']>[1]): Promise<string> {
    const r = await desk.curlForDraft(draft(), options);
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  }

  it("signs the draft's exact bytes with the profile's secret (resign, the default)", async () => {
    const command = await draftCurl({});
    expect(command).not.toContain(SECRET);
    const got = await runInBash(command);
    expect(got.verdict).toBe('valid');
    expect(got.body.equals(body)).toBe(true);
    expect(got.url).toBe('/platform/pay?via=draft');
    expect(got.method).toBe('POST');
  });

  it('follows the signature mode: invalid, none, keep, custom', async () => {
    expect((await runInBash(await draftCurl({ signature: 'invalid' }))).verdict).toBe('mismatch');
    operator.received.length = 0;
    const none = await runInBash(await draftCurl({ signature: 'none' }));
    expect(none.verdict).toBe('missing');
    operator.received.length = 0;
    expect((await runInBash(await draftCurl({ signature: 'keep' }))).headers['x-server-authorization']).toBe('stale');
    operator.received.length = 0;
    const custom = await draftCurl({ signature: 'custom', customSecret: 'one-time-secret' });
    expect(custom).not.toContain('one-time-secret');
    expect((await runInBash(custom)).verdict).toBe('mismatch');
  });

  it('goes to an explicit target, and refuses without one', async () => {
    const command = await draftCurl({ to: `http://${host}/prefix/` });
    const got = await runInBash(command);
    expect(got.url).toBe('/prefix/platform/pay?via=draft');
    const bare = createDesk({ home: tempDir() });
    try {
      const r = await bare.curlForDraft(draft(), {});
      expect(r.ok ? null : r.error.code).toBe('no-target');
      const unsigned = await bare.curlForDraft(draft(), { to: `http://${host}` });
      expect(unsigned.ok ? null : unsigned.error.code).toBe('no-secret');
    } finally {
      await bare.close();
    }
  });
});
