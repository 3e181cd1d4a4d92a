// Redaction finds a stored secret in every form a sender or a service may use, and changes nothing else.
import { describe, expect, it } from 'vitest';
import { redactBytes, redactedMarker, redactHeaders, redactText, redactUrlPart } from '../../../src-main/core/redact';
import { formsIn } from '../../security/helpers/canary';
import { revealed } from '../../security/helpers/secret-oracle';

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

  it('a base64 form is replaced with its whole run, at every alignment, so that no edge of it is left', () => {
    for (const lead of ['', 'a', 'ab', 'abc']) {
      for (const encoding of ['base64', 'base64url'] as const) {
        const html = `<p>${Buffer.from(`${lead}${S}`).toString(encoding)}</p>`;
        expect(Buffer.from(redactBytes(Buffer.from(html), [S]).bytes).toString(), html).toBe(`<p>${M}</p>`);
      }
    }
  });

  it('a base64 secret whose padding was percent-encoded, echoed inside a base64 body, is found by its whole groups', () => {
    const basic = Buffer.from('plant-user-Gy6Hu3Ji9:plant-pass!Kl4Zx7Cv1').toString('base64');
    for (const lead of ['', 'a', 'ab']) {
      const echoed = Buffer.from(`{"note":"${lead}${encodeURIComponent(basic)}8"}`).toString('base64');
      const out = Buffer.from(redactBytes(Buffer.from(`{"echo":"${echoed}"}`), [basic]).bytes);
      expect(formsIn(out, basic), lead).toEqual([]);
    }
  });

  it('header names, a method, error texts; hex either case, percent once or twice, \\u wholly or partly', () => {
    expect(redactHeaders([[Buffer.from(S).toString('hex'), '1']], [S])).toEqual([[M, '1']]);
    expect(redactHeaders([['Authorization', `Bearer ${Buffer.from(S).toString('base64')}`]], [S])).toEqual([['Authorization', M]]);
    expect(redactText(`the request expects ${JSON.stringify(S)}`, [S])).toBe(`the request expects "${M}"`);
    const partly = `${S.slice(0, 3)}\\u${S.charCodeAt(3).toString(16).padStart(4, '0')}${S.slice(4)}`;
    for (const form of [
      Buffer.from(S).toString('hex').toUpperCase(),
      encodeURIComponent(encodeURIComponent(S)),
      partly,
      `${S.slice(0, 2)}%${S.charCodeAt(2).toString(16)}${S.slice(3)}`,
    ]) {
      expect(redactText(form, [S]), form).toBe(M);
      expect(Buffer.from(redactBytes(Buffer.from(`{"k":"${form}","n":1}`), [S]).bytes).toString(), form).toBe(`{"k":"${M}","n":1}`);
    }
  });

  it('a partly encoded secret holding "+", encoded once more (a URL echoed in a header): "+" kept as itself', () => {
    const partly = `${S.slice(0, 2)}%${S.charCodeAt(2).toString(16)}${S.slice(3)}`;
    const echoed = encodeURIComponent(`/platform/pay?q=${partly}&n=20`);
    expect(redactHeaders([['X-Echo-Url', echoed]], [S])).toEqual([['X-Echo-Url', M]]);
    expect(revealed(redactText(echoed, [S]), S)).toEqual([]);
    expect(revealed(redactBytes(Buffer.from(`<p>${echoed}</p>`), [S]).bytes, S)).toEqual([]);
  });

  it('stays linear on hostile bodies: a megabyte-long token with escapes, thousands of base64 copies', () => {
    const longToken = Buffer.from(`${'a'.repeat(1_000_000)}%41\\u0041`);
    const copies = Buffer.from(Array.from({ length: 5_000 }, () => Buffer.from(`x${S}`).toString('base64')).join(''));
    const started = performance.now();
    expect(redactBytes(longToken, [S]).found).toEqual([]);
    expect(redactBytes(copies, [S]).found).toEqual([S]);
    // Quadratic work here would be minutes; linear is milliseconds (the bound leaves room for a loaded machine).
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
