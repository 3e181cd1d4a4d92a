// Puts a captured callback into a desk's log the way the proxy stores one (inbound, origin proxy),
// so replay tests do not depend on the proxy.
import type { Desk } from '../../../src-main/core/desk';
import type { HeaderList } from '../../../src-main/shared/model';
import { extractKeyFields, inspectCallback } from '../../../src-main/core/protocol';
import { checkSignature, sign } from '../../../src-main/core/signing';

export function capture(desk: Desk, path: string, body: Uint8Array | string, options: { secret?: string; headers?: HeaderList } = {}): number {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const signature = options.secret ? sign(bytes, options.secret) : null;
  const headers: HeaderList = options.headers ?? [
    ['Host', '127.0.0.1:8787'],
    ['Content-Type', 'application/json'],
    ['Content-Length', String(bytes.length)],
    ...(signature ? ([['x-server-authorization', signature]] as HeaderList) : []),
    ['User-Agent', 'platform-callbacks/1.0'],
  ];
  return desk.ctx.store.exchanges.insert({
    direction: 'inbound',
    kind: path.endsWith('/pay') ? 'pay' : 'results',
    origin: 'proxy',
    at: new Date().toISOString(),
    method: 'POST',
    path,
    query: '',
    target: null,
    headers,
    body: bytes,
    size: bytes.length,
    truncated: false,
    remoteAddress: '127.0.0.1',
    signature: checkSignature(bytes, signature, options.secret ? [{ profile: 'p', secret: options.secret, primary: true }] : []),
    findings: inspectCallback(path, bytes),
    keys: extractKeyFields(bytes),
    sourceId: null,
  }).id;
}
