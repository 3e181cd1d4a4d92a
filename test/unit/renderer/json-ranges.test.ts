import { describe, expect, it } from 'vitest';
import { jsonRanges, placeFindingsInText } from '../../../src-renderer/features/composer/json-ranges';
import type { Finding } from '../../../src-main/shared/model';

const textAt = (text: string, path: string): string | undefined => {
  const span = jsonRanges(text).spans.get(path);
  return span && text.slice(span.from, span.to);
};

const finding = (path: string): Finding => ({ level: 'error', path, message: 'x' });

describe('jsonRanges: where each JSON path sits in the body text', () => {
  it('spans a member from its key to the end of its value, in compact and pretty bodies alike', () => {
    const compact = '{"userId":"u","amount":5,"nested":{"a":[1,{"b":null}]}}';
    expect(textAt(compact, '$.amount')).toBe('"amount":5');
    expect(textAt(compact, '$.nested.a[1].b')).toBe('"b":null');
    expect(textAt(compact, '$.nested.a[0]')).toBe('1');
    expect(textAt(compact, '$')).toBe(compact);
    const pretty = '{\r\n  "amount" : 10.50 ,\r\n  "currency": "\\u0055SD"\r\n}\n';
    expect(textAt(pretty, '$.amount')).toBe('"amount" : 10.50');
    expect(textAt(pretty, '$.currency')).toBe('"currency": "\\u0055SD"');
    expect(jsonRanges(pretty).error).toBeNull();
  });

  it('names odd keys the way findings do', () => {
    expect(textAt('{"odd key":1,"é":2}', '$["odd key"]')).toBe('"odd key":1');
    expect(textAt('{"odd key":1,"é":2}', '$["é"]')).toBe('"é":2');
  });

  it('keeps what it read before a syntax error and says where the error is', () => {
    const text = '{"userId":"u","amount":5,"currency":}';
    const r = jsonRanges(text);
    expect(r.spans.get('$.amount')).toBeDefined();
    expect(r.error?.pos).toBe(text.indexOf('}'));
    expect(jsonRanges('').error?.message).toBe('unexpected end of the body');
    expect(jsonRanges('{"a":1} x').error?.pos).toBe(8);
  });

  it('skips a leading byte order mark', () => {
    expect(textAt('\uFEFF{"a":1}', '$.a')).toBe('"a":1');
  });
});

describe('placeFindingsInText: the span each finding marks', () => {
  it('marks a present field whole, a missing one at the brace of the object that lacks it', () => {
    const text = '{"userId":"u","errors":[{"code":7}]}';
    const [user, code, missing] = placeFindingsInText(text, [finding('$.userId'), finding('$.errors[0].code'), finding('$.errors[0].isClientSafe')]);
    expect(text.slice(user!.from, user!.to)).toBe('"userId":"u"');
    expect(text.slice(code!.from, code!.to)).toBe('"code":7');
    expect(missing!.from).toBe(text.indexOf('{"code"'));
    expect(missing!.to).toBe(missing!.from + 1);
  });

  it('marks a whole-body finding at the syntax error when there is one, else at the first character', () => {
    const broken = '{"a":1,}';
    const [atError] = placeFindingsInText(broken, [finding('$')]);
    expect(atError!.from).toBe(broken.indexOf('}'));
    const [atStart] = placeFindingsInText('  {"a":1}', [finding('$')]);
    expect(atStart).toMatchObject({ from: 2, to: 3 });
    const [empty] = placeFindingsInText('', [finding('$')]);
    expect(empty).toMatchObject({ from: 0, to: 0 });
  });
});
