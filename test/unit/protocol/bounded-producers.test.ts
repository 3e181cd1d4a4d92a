import { describe, expect, it } from 'vitest';
import { findDuplicateKeys, MAX_DUPLICATE_KEYS } from '../../../src-main/core/protocol/duplicate-keys';
import { MAX_JSON_DEPTH, MAX_OBJECT_MEMBERS, nestedDeeperThan, readJsonBody, shapeProblem } from '../../../src-main/core/protocol/json-body';
import { inspect } from '../../../src-main/core/protocol';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('the work a hostile body causes is bounded', () => {
  it('depth is measured outside strings, on text and on bytes alike', () => {
    const at64 = `${'['.repeat(64)}${']'.repeat(64)}`;
    const at65 = `${'['.repeat(65)}${']'.repeat(65)}`;
    expect(nestedDeeperThan(at64, MAX_JSON_DEPTH)).toBe(false);
    expect(nestedDeeperThan(at65, MAX_JSON_DEPTH)).toBe(true);
    expect(nestedDeeperThan(utf8(at65), MAX_JSON_DEPTH)).toBe(true);
    expect(nestedDeeperThan(JSON.stringify({ a: '['.repeat(500), b: '\\"[[[' }), MAX_JSON_DEPTH)).toBe(false);
  });

  it('a body nested deeper than the limit is refused with a finding that says so, not parsed', () => {
    const read = readJsonBody(utf8(`{"a":${'['.repeat(300_000)}${']'.repeat(300_000)}}`));
    expect(read.ok).toBe(false);
    expect(read.findings.map((f) => f.message)).toEqual([expect.stringContaining(`nested deeper than ${MAX_JSON_DEPTH} levels`)]);
  });

  it('an object with more members than the limit is refused unparsed; long arrays are not limited', () => {
    const members = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`;
    expect(shapeProblem(members(MAX_OBJECT_MEMBERS), MAX_JSON_DEPTH, MAX_OBJECT_MEMBERS)).toBeNull();
    expect(shapeProblem(members(MAX_OBJECT_MEMBERS + 1), MAX_JSON_DEPTH, MAX_OBJECT_MEMBERS)).toBe('members');
    expect(shapeProblem(`{"a":"${','.repeat(5_000)}"}`, MAX_JSON_DEPTH, MAX_OBJECT_MEMBERS)).toBeNull();
    const read = readJsonBody(utf8(members(90_000)));
    expect(read.ok).toBe(false);
    expect(read.findings.map((f) => f.message)).toEqual([expect.stringContaining('more than 1,000 members')]);
    expect(readJsonBody(utf8(`{"rounds":[${Array.from({ length: 100_000 }, (_, i) => i).join(',')}]}`)).ok).toBe(true);
  });

  it('duplicate-key search stops after the limit and keeps paths and keys short', () => {
    const many = `{"a":[${Array.from({ length: 5_000 }, () => '{"k":1,"k":2}').join(',')}]}`;
    expect(findDuplicateKeys(many)).toHaveLength(MAX_DUPLICATE_KEYS);
    const longKey = 'x'.repeat(100_000);
    const [dup] = findDuplicateKeys(JSON.stringify({ o: {} }).replace('{}', `{"${longKey}":1,"${longKey}":2}`));
    expect(dup!.key.length).toBeLessThanOrEqual(65);
    expect(dup!.path.length).toBeLessThan(100);
  });

  it('a path deeper than the limit ends in one ellipsis instead of one step per level', () => {
    // Not reached through readJsonBody (refused first); the search alone must stay bounded too.
    const text = `{"a":${'['.repeat(10_000)}{"k":1,"k":2}${']'.repeat(10_000)}}`;
    const [dup] = findDuplicateKeys(text);
    expect(dup!.path.endsWith('…')).toBe(true);
    expect(dup!.path.length).toBeLessThan(4 * MAX_JSON_DEPTH + 10);
  });

  // Its time is measured by `npm run bench -- --only judge` (BENCHMARKS.md), not asserted on a shared machine.
  it('a 1 MB body of duplicate keys gets a bounded findings list', () => {
    const body = utf8(`{"userId":"u","a":[${Array.from({ length: 75_000 }, () => '{"k":1,"k":2}').join(',')}]}`);
    expect(body.length).toBeGreaterThan(1_000_000);
    const findings = inspect('pay', body);
    expect(findings.filter((f) => f.message.includes('appears 2 times'))).toHaveLength(MAX_DUPLICATE_KEYS);
    expect(JSON.stringify(findings).length).toBeLessThan(20_000);
  });
});
