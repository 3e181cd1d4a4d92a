// Chromium writes no postData for a request whose body was a Blob or a stream: bodySize 0, but the
// Content-Length it sent. Imported, such an entry is explained by the recording, never by the secret.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import { sign } from '../../../src-main/core/signing';
import { verdictWords } from '../../../src-main/shared/verdict-words';
import { tempDirForSuite } from '../../helpers/temp';
import { exchangeOf } from '../../helpers/log-reads';

const SECRET = 'blob-secret';
const sent = '{"userId":"u-blob","depositId":"dep-blob-1","currency":"EUR","amount":100}';

function chromiumHar(withPostData: boolean): string {
  return JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'WebInspector', version: '537.36' },
      entries: [
        {
          startedDateTime: '2026-03-01T10:00:00.000Z',
          time: 8.5,
          request: {
            method: 'POST',
            url: 'https://operator.example/platform/pay',
            httpVersion: 'HTTP/1.1',
            headers: [
              { name: 'Content-Type', value: 'application/json' },
              { name: 'Content-Length', value: String(Buffer.byteLength(sent)) },
              { name: 'x-server-authorization', value: sign(Buffer.from(sent), SECRET) },
            ],
            queryString: [],
            cookies: [],
            headersSize: -1,
            bodySize: withPostData ? Buffer.byteLength(sent) : 0,
            ...(withPostData ? { postData: { mimeType: 'application/json', text: sent } } : {}),
          },
          response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [], content: { size: 2, mimeType: 'application/json', text: '{}' } },
        },
      ],
    },
  });
}

let desk: Desk;
let remove: () => void;

beforeEach(async () => {
  const temp = tempDirForSuite();
  remove = temp.remove;
  desk = createDesk({ home: temp.dir });
  expect((await desk.saveProfile({ name: 'blob', secret: SECRET })).ok).toBe(true);
});

afterEach(async () => {
  await desk.close();
  remove();
});

async function imported(text: string) {
  const result = await desk.importHar(text, { origin: 'chromium.har' });
  if (!result.ok) throw new Error(result.error.message);
  return await exchangeOf(desk, result.value.ids[0]!);
}

describe('a HAR entry whose recorder kept no body', () => {
  it('is judged "the recorder kept no body", not "most likely a different secret"', async () => {
    const x = await imported(chromiumHar(false));
    expect(x.request.bodyBase64).toBe('');
    expect(x.signature.diagnosis?.match?.variant).toBe('recorder-kept-no-body');
    expect(x.signature.diagnosis?.summary).toMatch(/^The recorder kept no body: the request was sent with Content-Length 74/);
    expect(x.signature.diagnosis?.summary).not.toMatch(/different secret/);
    expect(x.signature.notes.join(' ')).toContain('Content-Length 74');
    expect(verdictWords(x.signature.verdict!, x.signature.diagnosis)).toContain('the recorder kept no body');
  });

  it('the same request with its body is valid: the note is only for the missing body', async () => {
    const x = await imported(chromiumHar(true));
    expect(x.signature.verdict).toBe('valid');
    expect(x.signature.notes.join(' ')).not.toContain('kept no body');
  });
});
