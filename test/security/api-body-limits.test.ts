// The web API bounds each call's body by its method: 1 MiB for a call of ids, filters or fields, 64 MiB
// for a call that carries a request body or an import. A body over its method's bound is refused 413
// with a sentence naming the bound, before it is read in full: a declared length at once, a chunked body
// at the chunk that passes the bound, without waiting for its end.
import net from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_CARRYING_METHODS, MAX_API_BODY_BYTES, MAX_API_CALL_BYTES } from '../../src-main/cli/web/body-limits';
import { startWebUi, type WebUi } from '../../src-main/cli/web';
import { createDesk, type Desk } from '../../src-main/core/desk';
import { sign } from '../../src-main/core/signing';
import { DESK_METHODS } from '../../src-main/shared/desk-api';
import { tempDirForSuite } from '../helpers/temp';
import { apiCall, resultOf, tokenOf } from '../integration/web/http-raw';

const MiB = 1024 * 1024;

let desk: Desk;
let ui: WebUi;
let token: string;
let renderer: { dir: string; remove(): void };
let home: { dir: string; remove(): void };

beforeAll(async () => {
  renderer = tempDirForSuite('wager-desk-renderer-');
  mkdirSync(join(renderer.dir, 'assets'));
  writeFileSync(join(renderer.dir, 'index.html'), '<!doctype html><title>Wager Desk</title>');
  home = tempDirForSuite();
  desk = createDesk({ home: home.dir });
  ui = await startWebUi(desk, { port: 0, rendererDir: renderer.dir });
  token = tokenOf(ui.url);
});

afterAll(async () => {
  await ui?.close();
  await desk?.close();
  renderer?.remove();
  home?.remove();
});

const headers = () => ({ authorization: `Bearer ${token}` });

/** The head of a POST /api/<method> with the page's headers and the given framing. */
const head = (method: string, framing: string): string =>
  `POST /api/${method} HTTP/1.1\r\nHost: 127.0.0.1:${ui.port}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n${framing}\r\n`;

/**
 * Writes `head`, then `chunks` one after the other, and never ends the body: resolves with what the
 * server answered once it closes the connection, and how many body bytes had been written by then.
 */
function sendUnfinished(headText: string, chunks: Buffer[]): Promise<{ answer: string; written: number }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(ui.port, '127.0.0.1');
    const got: Buffer[] = [];
    let written = 0;
    socket.on('data', (d: Buffer) => got.push(d));
    socket.on('error', reject);
    socket.on('close', () => resolve({ answer: Buffer.concat(got).toString('latin1'), written }));
    socket.write(headText);
    for (const chunk of chunks) {
      socket.write(chunk);
      written += chunk.length;
    }
  });
}

/** A chunked body's chunk of `size` bytes (white space: it would parse as part of a JSON array). */
const chunk = (size: number): Buffer => Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), Buffer.alloc(size, 0x20), Buffer.from('\r\n')]);

describe('the web API body bounds', () => {
  it('are 1 MiB for every method but those that carry a request body or an import (64 MiB), as docs/LIMITS.md says', () => {
    expect(MAX_API_CALL_BYTES).toBe(MiB);
    expect(MAX_API_BODY_BYTES).toBe(64 * MiB);
    expect([...BODY_CARRYING_METHODS].sort()).toEqual(
      ['curlForDraft', 'importHar', 'importSavedRequests', 'inspectDraft', 'previewSignature', 'saveRequest', 'send', 'signBody', 'verifySignature'].sort(),
    );
    for (const m of BODY_CARRYING_METHODS) expect(DESK_METHODS).toContain(m);
  });

  it('a small call over 1 MiB is refused 413 naming the bound; within it, it is answered; a body-carrying call takes more', async () => {
    // A valid JSON array past the bound: refused for its size, not its content.
    const over = await apiCall(ui.port, 'listExchanges', [{ search: 'a'.repeat(MAX_API_CALL_BYTES) }], headers());
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body)).toEqual({
      ok: false,
      error: { code: 'bad-input', message: expect.stringContaining('The request body of listExchanges is larger than 1 MiB') },
    });
    expect(over.headers.connection).toBe('close');
    // A search within the bound but past the search's own limit is still the search's 400.
    const longSearch = await apiCall(ui.port, 'listExchanges', [{ search: 'a'.repeat(MAX_API_CALL_BYTES / 2) }], headers());
    expect(longSearch.status).toBe(400);
    // 2 MiB to sign: the body-carrying bound.
    const body = Buffer.alloc(2 * MiB, 0x61);
    const secret = { secret: { label: 'typed', secret: 'body-limit-secret' } };
    const signed = await apiCall(ui.port, 'signBody', [body.toString('base64'), secret], headers());
    expect(signed.status, signed.body.slice(0, 200)).toBe(200);
    expect(await resultOf(signed)).toEqual({ ok: true, value: sign(body, 'body-limit-secret') });
  });

  it('a declared length over the bound is refused at once, before a byte of the body is sent', async () => {
    const { answer, written } = await sendUnfinished(head('getStatus', `Content-Length: ${MAX_API_CALL_BYTES + 1}\r\n`), []);
    expect(written).toBe(0);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('larger than 1 MiB');
    const big = await sendUnfinished(head('importHar', `Content-Length: ${MAX_API_BODY_BYTES + 1}\r\n`), []);
    expect(big.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(big.answer).toContain('The request body of importHar is larger than 64 MiB');
  });

  it('a chunked body is refused at the chunk that passes the bound, without waiting for its end', async () => {
    // 1 MiB and 64 KiB in chunks of 64 KiB, then nothing more: the body never ends.
    const chunks = Array.from({ length: 17 }, () => chunk(64 * 1024));
    const { answer } = await sendUnfinished(head('getStatus', 'Transfer-Encoding: chunked\r\n'), [Buffer.from('1\r\n[\r\n'), ...chunks]);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('The request body of getStatus is larger than 1 MiB');
  });
});
