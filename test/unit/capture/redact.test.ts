// Redaction finds a stored secret in every form a sender or a service may use, and changes nothing else.
import { describe, expect, it } from 'vitest';
import { redactBytes, redactedMarker, redactHeaders, redactUrlPart } from '../../../src-main/core/redact';
import { formsIn } from '../../security/helpers/canary';

const S = 'redact/me+please-9f3c';
const M = redactedMarker(S);

describe('redaction', () => {
  it('headers: plain, URL-encoded, inside Basic credentials; others untouched', () => {
    const out = redactHeaders(
      [
        ['X-A', `k=${S}`],
        ['X-B', encodeURIComponent(S)],
        ['Authorization', `Basic ${Buffer.from(`op:${S}`).toString('base64')}`],
        ['Authorization', `Basic ${Buffer.from('op:other').toString('base64')}`],
        ['Content-Type', 'application/json'],
      ],
      [S],
    );
    expect(out.slice(0, 3).map(([, v]) => v)).toEqual([M, M, M]);
    expect(out[3]![1]).toBe(`Basic ${Buffer.from('op:other').toString('base64')}`);
    expect(out[4]![1]).toBe('application/json');
  });

  it('paths and queries: in place where it can, the piece that holds it otherwise', () => {
    expect(redactUrlPart(`/a/${S}/b`, [S])).toBe(`/a/${M}/b`);
    expect(redactUrlPart(`k=${encodeURIComponent(S)}&x=1`, [S])).toBe(`k=${M}&x=1`);
    // Partly encoded ("/" as %2F, "+" kept): the segment becomes the marker.
    expect(redactUrlPart(`/a/${S.replace('/', '%2F')}/platform/pay`, [S])).toBe(`/a/${M}/platform/pay`);
    expect(redactUrlPart('/platform/pay', [S])).toBe('/platform/pay');
  });

  it('bodies of answers: every encoding a service may echo', () => {
    const raw = Buffer.from(S);
    const echoes = [
      JSON.stringify({ k: S }),
      JSON.stringify({ k: S }).replace(/\//g, '\\/'),
      `{"k":"${[...S].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}`,
      `k=${encodeURIComponent(S)}`,
      raw.toString('hex'),
      raw.toString('hex').toUpperCase(),
      ...[0, 1, 2].flatMap((shift) => {
        const b = Buffer.concat([Buffer.alloc(shift, 0x41), raw, Buffer.from('tail')]);
        return [b.toString('base64'), b.toString('base64url')];
      }),
    ];
    for (const echo of echoes) {
      const { bytes, found } = redactBytes(Buffer.from(echo), [S]);
      expect(found, echo).toEqual([S]);
      expect(formsIn(bytes, S), echo).toEqual([]);
    }
    const clean = Buffer.from('{"ok":true}');
    expect(redactBytes(clean, [S]).bytes).toBe(clean);
  });
});
