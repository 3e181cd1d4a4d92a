// What is stored of an answer to a request that carried a secret: the secret becomes its fingerprint
// marker wherever the other side echoed it (headers, body, or the error that stood in for an answer).
import { describe, expect, it } from 'vitest';
import { scrubOutcome } from '../../../src-main/core/outbound/scrub';
import { redactedMarker } from '../../../src-main/core/redact';

const KEY = 'op-api-key-0123456789abcdef';

describe('scrubOutcome', () => {
  it("replaces the secret in a failed send's error text", () => {
    const out = scrubOutcome({ ok: false, errorCode: 'refused', error: `connect refused for key ${KEY} (twice: ${KEY})`, durationMs: 3 }, [KEY]);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error).not.toContain(KEY);
    expect(out.error).toBe(`connect refused for key ${redactedMarker(KEY)} (twice: ${redactedMarker(KEY)})`);
    expect(out.errorCode).toBe('refused');
    expect(out.durationMs).toBe(3);
  });

  it("replaces it in the answer's headers and body, and leaves an answer without it as it was", () => {
    const echoed = scrubOutcome(
      { ok: true, response: { status: 401, headers: [['x-echo', KEY]], body: new TextEncoder().encode(`{"bad":"${KEY}"}`) }, durationMs: 1 },
      [KEY],
    );
    if (!echoed.ok) throw new Error('expected an answer');
    expect(Buffer.from(echoed.response.body).toString('utf8')).toBe(`{"bad":"${redactedMarker(KEY)}"}`);
    expect(JSON.stringify(echoed.response.headers)).not.toContain(KEY);
    const body = new TextEncoder().encode('{"status":"ok"}');
    const clean = scrubOutcome({ ok: true, response: { status: 200, headers: [], body }, durationMs: 1 }, [KEY]);
    if (!clean.ok) throw new Error('expected an answer');
    expect(clean.response.body).toEqual(body);
  });
});
