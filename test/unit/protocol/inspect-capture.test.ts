// The proxy judges a capture with inspectCapture: one decode and parse for both its findings and its
// key fields. It must give exactly what the two separate readers give, whatever the bytes.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { extractKeyFields, inspect, inspectCapture } from '../../../src-main/core/protocol';
import { utf8 } from './helpers';

const kinds = fc.constantFrom('pay' as const, 'results' as const, 'other' as const);
const separately = (kind: 'pay' | 'results' | 'other', bytes: Uint8Array) => ({
  findings: kind === 'other' ? [] : inspect(kind, bytes),
  keys: extractKeyFields(bytes),
});

describe('inspectCapture', () => {
  it('equals inspect plus extractKeyFields on arbitrary bytes and on callback-like JSON', () => {
    const callbackLike = fc
      .record(
        {
          depositId: fc.oneof(fc.uuid(), fc.integer()),
          userId: fc.string(),
          amount: fc.oneof(fc.double(), fc.string()),
          result: fc.constantFrom('WIN', 'LOSE', 'x'),
          currency: fc.string(),
        },
        { requiredKeys: [] },
      )
      .map((o) => utf8(`${JSON.stringify(o)}`));
    const withBom = callbackLike.map((b) => new Uint8Array([0xef, 0xbb, 0xbf, ...b]));
    fc.assert(
      fc.property(kinds, fc.oneof(fc.uint8Array({ maxLength: 120 }), callbackLike, withBom), (kind, bytes) => {
        expect(inspectCapture(kind, bytes)).toEqual(separately(kind, bytes));
      }),
      { numRuns: 600 },
    );
  });

  it('reads the keys of a well-formed pay, and none of a body that is not UTF-8', () => {
    const pay = utf8('{"userId":"u-1","depositId":"d-1","amount":5,"currency":"EUR"}');
    expect(inspectCapture('pay', pay).keys).toMatchObject({ userId: 'u-1', depositId: 'd-1', amount: 5, currency: 'EUR' });
    expect(inspectCapture('pay', new Uint8Array([0x7b, 0xff, 0x7d])).keys.depositId).toBeNull();
    expect(inspectCapture('pay', new Uint8Array([0x7b, 0xff, 0x7d])).findings[0]?.level).toBe('error');
  });
});
