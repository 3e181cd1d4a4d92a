// Header lists as the proxy forwards them: the filters a forwarding proxy applies (RFC 9110 section
// 7.6.1: connection-specific fields are not forwarded), and the flat form Node writes. Node's rawHeaders
// become pairs in outbound/headers.ts (toPairs), which the HTTP client shares.
import { SIGNATURE_HEADER, type HeaderList } from '../../shared/model';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
/**
 * End-to-end fields the interface needs: naming one in Connection does not remove it (a sender could
 * otherwise strip the signature from the forwarded request while the row keeps it).
 */
const NEVER_CONNECTION_SCOPED = new Set([SIGNATURE_HEADER, 'authorization', 'content-type', 'content-length', 'content-encoding', 'host']);
/** Methods Node sends without a body framing header when none is given. */
const BODILESS_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/** Names that only concern one connection: the fixed set, proxy-*, and whatever Connection lists. */
function connectionScoped(raw: readonly string[]): (lowerName: string) => boolean {
  let listed: Set<string> | null = null;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== 'connection') continue;
    listed ??= new Set();
    for (const token of raw[i + 1]!.split(',')) {
      const t = token.trim().toLowerCase();
      if (t !== '' && !NEVER_CONNECTION_SCOPED.has(t)) listed.add(t);
    }
  }
  return (name) => HOP_BY_HOP.has(name) || name.startsWith('proxy-') || (listed !== null && listed.has(name));
}

/**
 * The request headers to send upstream, flat as http.request takes them: everything received, in
 * order, minus connection-scoped fields and Expect (the proxy already answered 100-continue and holds
 * the whole body), with Host replaced by the upstream's (in place, or first when there was none).
 * Content-Length is kept when it was sent, and added last for a body that came chunked (the proxy
 * holds it whole; without one Node would send a POST chunked).
 */
export function upstreamRequestHeaders(raw: readonly string[], upstreamHost: string, method: string, bodyLength: number): string[] {
  const scoped = connectionScoped(raw);
  const out: string[] = [];
  let hostSet = false;
  let lengthSet = false;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (lower === 'host') {
      if (!hostSet) out.push(name, upstreamHost);
      hostSet = true;
      continue;
    }
    if (lower === 'expect' || scoped(lower)) continue;
    if (lower === 'content-length') lengthSet = true;
    out.push(name, raw[i + 1]!);
  }
  if (!hostSet) out.unshift('Host', upstreamHost);
  if (!lengthSet && (bodyLength > 0 || !BODILESS_METHODS.has(method))) out.push('Content-Length', String(bodyLength));
  return out;
}

/** The upstream's response headers to relay to the client, flat, minus connection-scoped fields. */
export function clientResponseHeaders(raw: readonly string[]): string[] {
  const scoped = connectionScoped(raw);
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!scoped(raw[i]!.toLowerCase())) out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

/** HeaderList to the flat form res.writeHead takes. */
export function flatten(list: HeaderList): string[] {
  const out: string[] = [];
  for (const [name, value] of list) out.push(name, value);
  return out;
}
