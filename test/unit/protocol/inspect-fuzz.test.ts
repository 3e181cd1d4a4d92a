// inspect() runs on whatever arrives at the proxy: it must return findings, never throw.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { inspect, inspectCallback, MESSAGE_KINDS } from '../../../src-main/core/protocol/inspect';
import { json, utf8 } from './helpers';

const kinds = fc.constantFrom(...MESSAGE_KINDS);
const isFinding = (f: unknown): boolean =>
  typeof f === 'object' &&
  f !== null &&
  ['error', 'warning', 'info'].includes((f as { level: string }).level) &&
  typeof (f as { path: unknown }).path === 'string' &&
  (f as { path: string }).path.startsWith('$') &&
  typeof (f as { message: unknown }).message === 'string';

describe('inspect never throws', () => {
  it('on arbitrary bytes', () => {
    fc.assert(
      fc.property(kinds, fc.uint8Array({ maxLength: 200 }), (kind, bytes) => {
        const findings = inspect(kind, bytes);
        expect(findings.every(isFinding)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('on arbitrary JSON values, and any non-object is an error', () => {
    fc.assert(
      fc.property(kinds, fc.jsonValue(), (kind, value) => {
        const findings = inspect(kind, json(value));
        expect(findings.every(isFinding)).toBe(true);
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          expect(findings.some((f) => f.level === 'error')).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('on objects built from the spec fields with arbitrary values', () => {
    const field = fc.constantFrom('result', 'userId', 'depositId', 'roomId', 'gameId', 'currency', 'amount', 'tournamentId', 'errors', 'data', 'status');
    const body = fc.dictionary(field, fc.oneof(fc.jsonValue(), fc.constantFrom('WIN', 'LOSE', 'REFUND', 'DRAW', 'blocks')));
    fc.assert(
      fc.property(kinds, body, (kind, value) => {
        expect(inspect(kind, json(value)).every(isFinding)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('on deeply nested bodies and on values that are not byte arrays', () => {
    const deep = utf8(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(() => inspect('pay', deep)).not.toThrow();
    const deepObject = utf8(`${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`);
    expect(inspect('pay', deepObject)).toEqual([{ level: 'error', path: '$', message: expect.stringContaining('nested deeper than 64 levels') }]);
    const notBytes = inspect('pay', 'not bytes' as unknown as Uint8Array);
    expect(notBytes.every(isFinding)).toBe(true);
    expect(inspectCallback('/platform/pay', null as unknown as Uint8Array).length).toBeGreaterThan(0);
  });
});
