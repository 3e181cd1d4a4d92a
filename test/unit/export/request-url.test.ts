import { describe, expect, it } from 'vitest';
import { bodyText } from '../../../src-main/core/export/body-text';
import { exchangeUrl, inboundUrl, splitUrl } from '../../../src-main/core/export/request-url';

describe('request URLs', () => {
  it('splits a URL into the path and query exactly as written', () => {
    expect(splitUrl('http://h:1/a/../b%2F?x=%20y&z#frag')).toEqual({ path: '/a/../b%2F', query: 'x=%20y&z' });
    expect(splitUrl('https://h')).toEqual({ path: '/', query: '' });
    expect(splitUrl('https://h?q=1')).toEqual({ path: '/', query: 'q=1' });
    expect(splitUrl('/relative')).toBeNull();
  });

  it('rebuilds an inbound URL from the Host header, whatever its case', () => {
    expect(inboundUrl({ path: '/platform/pay', query: 'a=1', headers: [['HOST', 'op.test:81']] })).toBe('http://op.test:81/platform/pay?a=1');
    expect(inboundUrl({ path: '/p', query: '', headers: [] })).toBe('http://localhost/p');
    expect(inboundUrl({ path: 'http://abs.test/p', query: '', headers: [['host', 'x']] })).toBe('http://abs.test/p');
  });

  it('uses the target of an outbound exchange', () => {
    const request = { path: '/p', query: '', headers: [['Host', 'ignored']] as Array<[string, string]> };
    expect(exchangeUrl({ direction: 'outbound', target: 'https://t.test/base/p', request })).toBe('https://t.test/base/p');
    expect(exchangeUrl({ direction: 'inbound', target: null, request })).toBe('http://ignored/p');
  });
});

describe('body text', () => {
  it('keeps valid UTF-8 (a BOM included) as text and anything else as base64', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]);
    const asText = bodyText(bom);
    expect(asText.base64).toBe(false);
    expect(Buffer.from(asText.text, 'utf8').equals(bom)).toBe(true);
    const binary = Buffer.from([0xc3, 0x28, 0x00]);
    expect(bodyText(binary)).toEqual({ text: binary.toString('base64'), base64: true });
  });
});
