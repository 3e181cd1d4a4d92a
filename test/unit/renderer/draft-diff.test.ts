import { describe, expect, it } from 'vitest';
import { draftDiff } from '../../../src-renderer/features/composer/draft-diff';
import type { Draft } from '../../../src-main/shared/model';

const draft = (body: string, headers: Draft['headers'] = [['content-type', 'application/json']]): Draft => ({
  method: 'POST',
  path: '/platform/results',
  headers,
  bodyBase64: Buffer.from(body).toString('base64'),
  sourceId: 1,
});

describe('the composer diff before Send', () => {
  it('names each changed body field and header, and nothing for an untouched draft', () => {
    const before = '{"result":"REFUND","depositId":"d-1","amount":5}';
    const after = '{"result":"REFUND","depositId":"d-2","amount":7.5,"extra":true}';
    expect(draftDiff(draft(before), draft(before), before, before)).toEqual([]);
    const d = draftDiff(draft(before), draft(after, [['content-type', 'text/plain']]), before, after);
    expect(d).toEqual([
      { area: 'body', path: '$.depositId', before: 'd-1', after: 'd-2' },
      { area: 'body', path: '$.amount', before: 5, after: 7.5 },
      { area: 'body', path: '$.extra', before: undefined, after: true },
      { area: 'header', path: 'content-type', before: 'application/json', after: 'text/plain' },
    ]);
  });

  it('says when only the bytes changed, and compares a body that is not JSON as a whole', () => {
    expect(draftDiff(draft('{"a":1}'), draft('{ "a": 1 }'), '{"a":1}', '{ "a": 1 }')[0]!.path).toBe('(bytes)');
    expect(draftDiff(draft('x'), draft('y'), 'x', 'y')).toEqual([{ area: 'body', path: '$', before: 'x', after: 'y' }]);
  });
});
