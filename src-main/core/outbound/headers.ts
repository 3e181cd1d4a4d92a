// Small helpers over HeaderList (ordered name/value pairs). Header names compare case-insensitively,
// as HTTP says; values and order are kept exactly as given.
import type { HeaderList } from '../../shared/model';

export { SIGNATURE_HEADER } from '../signing';

/**
 * Headers that describe one connection or one framing of the body, not the message. A captured
 * request carries the proxy's Host and the service's framing; a replay to another target must not.
 */
export const CONNECTION_HEADERS: readonly string[] = [
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'proxy-connection',
  'proxy-authorization',
];

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * Node's rawHeaders ([name, value, name, value, ...]) as a HeaderList: names in their received case and
 * order, values decoded as latin1, so bytes survive the round trip.
 */
export function toPairs(raw: readonly string[]): HeaderList {
  const out: HeaderList = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

/** The first value of a header, or null. */
export function headerValue(headers: HeaderList, name: string): string | null {
  return headers.find(([n]) => same(n, name))?.[1] ?? null;
}

/** A copy without the named headers. */
export function withoutHeaders(headers: HeaderList, names: readonly string[]): HeaderList {
  return headers.filter(([n]) => !names.some((x) => same(n, x))).map(([n, v]) => [n, v]);
}

/**
 * A copy with one value for the header: the first occurrence is replaced where it stands (so the
 * order of a captured request is kept), later ones are dropped; a header not present is appended.
 */
export function withHeader(headers: HeaderList, name: string, value: string): HeaderList {
  const out: HeaderList = [];
  let placed = false;
  for (const [n, v] of headers) {
    if (!same(n, name)) out.push([n, v]);
    else if (!placed) {
      out.push([n, value]);
      placed = true;
    }
  }
  if (!placed) out.push([name, value]);
  return out;
}

/** The headers of a request whose body is `length` bytes: any given Content-Length or Transfer-Encoding gives way to the true length. */
export function withContentLength(headers: HeaderList, length: number): HeaderList {
  return [...withoutHeaders(headers, ['content-length', 'transfer-encoding']), ['Content-Length', String(length)]];
}
