// Bounded storage per request: the findings keep a bounded count, a bounded path and message length,
// and a bounded size that follows the body's (within a floor and a cap); a cut list ends with a finding
// that says how many more were not stored; a judged row is at most about twice its body.
import { describe, expect, it } from 'vitest';
import {
  boundFindings,
  findingsBudget,
  judge,
  MAX_FINDING_PATH,
  MAX_FINDINGS_BYTES,
  MAX_STORED_FINDINGS,
  type CapturedRequest,
} from '../../../src-main/core/capture';
import type { Finding } from '../../../src-main/shared/model';

const many = (n: number, path = '$.a'): Finding[] => Array.from({ length: n }, (_, i) => ({ level: 'warning', path, message: `finding ${i}` }));
const bytes = (findings: Finding[]): number => Buffer.byteLength(JSON.stringify(findings));

describe('boundFindings', () => {
  it('keeps a list that fits as it is', () => {
    const list = many(10);
    expect(boundFindings(list, 4096)).toEqual(list);
  });

  it('cuts by count, and says how many more were not stored', () => {
    const out = boundFindings(many(5000), 1_000_000);
    expect(out).toHaveLength(MAX_STORED_FINDINGS);
    expect(out.at(-1)?.message).toMatch(/^4901 more findings not stored/);
  });

  it('cuts each path and message to its bound', () => {
    const out = boundFindings([{ level: 'error', path: `$${'[0]'.repeat(5000)}`, message: 'm'.repeat(50_000) }], 64 * 1024);
    expect(out[0]!.path.length).toBeLessThanOrEqual(MAX_FINDING_PATH);
    expect(out[0]!.message.length).toBeLessThanOrEqual(1024);
  });

  it('keeps the whole record within its byte budget', () => {
    for (const budget of [4096, 10_000, 64 * 1024]) {
      const out = boundFindings(many(300, `$${'.deep'.repeat(60)}`), budget);
      expect(bytes(out)).toBeLessThanOrEqual(budget);
      expect(out.at(-1)?.message).toMatch(/more findings not stored/);
    }
  });

  it('a budget follows the body, within a floor and a cap', () => {
    expect(findingsBudget(0)).toBe(4096);
    expect(findingsBudget(20_000)).toBe(20_000);
    expect(findingsBudget(10_000_000)).toBe(MAX_FINDINGS_BYTES);
  });
});

/** A pay as the proxy receives it, with this body. */
function payArriving(body: Buffer): CapturedRequest {
  return {
    direction: 'inbound',
    origin: 'proxy',
    at: new Date().toISOString(),
    method: 'POST',
    path: '/platform/pay',
    query: '',
    target: null,
    headers: [['content-type', 'application/json']],
    body,
    size: body.length,
    truncated: false,
    remoteAddress: null,
    sourceId: null,
  };
}

describe('a judged row of a hostile body', () => {
  it('nested arrays ending in thousands of duplicate keys: findings bounded, the row about its body’s size at most twice', () => {
    const depth = 200;
    const inner = `{${'"k":1,'.repeat(4000)}"k":1}`;
    const items = Array.from({ length: 200 }, () => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`).join(',');
    const body = Buffer.from(`{"userId":"u","depositId":"d","currency":"USD","amount":1,"x":[${items}]}`);
    const { row } = judge(payArriving(body), { candidates: [], secrets: [] });
    const findingsBytes = bytes(row.findings);
    expect(findingsBytes).toBeLessThanOrEqual(findingsBudget(body.length));
    expect(row.findings.length).toBeLessThanOrEqual(MAX_STORED_FINDINGS);
    for (const f of row.findings) expect(f.path.length).toBeLessThanOrEqual(MAX_FINDING_PATH);
    const rowBytes = body.length + JSON.stringify(row.headers).length + findingsBytes + JSON.stringify(row.signature).length + JSON.stringify(row.keys).length;
    expect(rowBytes).toBeLessThanOrEqual(2 * body.length + 1024);
  });
});

describe('what a judged row keeps of a body that holds a secret', () => {
  it('no finding quotes it: not the parser message of a form-encoded body, not a key or a value named in a finding', () => {
    const secret = 'form-secret-7f3a9c';
    const cases = [
      `token=${secret}&a=1`,
      `{"userId":"u","depositId":"d","currency":"USD","amount":1,"${secret}":1}`,
      `{"userId":"${secret}  ","depositId":"d","currency":"USD","amount":1}`,
    ];
    for (const text of cases) {
      const body = Buffer.from(text);
      const { row } = judge(payArriving(body), { candidates: [], secrets: [secret] });
      expect(row.findings.length, text).toBeGreaterThan(0);
      expect(JSON.stringify(row.findings), text).not.toContain(secret);
      expect(JSON.stringify(row.findings), text).not.toContain(secret.slice(0, 10));
    }
  });
});
