// Test helpers: rows in the real exchange store, shaped as the capture proxy writes them, without
// running the proxy (these tests are about what happens to captures afterwards).
import type { Desk } from '../../../src-main/core/desk';
import { extractKeyFields, inspectCallback, kindOfPath } from '../../../src-main/core/protocol';
import { checkSignature, sign } from '../../../src-main/core/signing';
import type { HeaderList } from '../../../src-main/shared/model';

export interface CaptureInput {
  body: Uint8Array | string;
  path?: string;
  query?: string;
  /** 'valid': signed with this secret; a string: that header value; null: no signature header. */
  signature?: { secret: string } | string | null;
  extraHeaders?: HeaderList;
  response?: { status: number; headers?: HeaderList; body?: Uint8Array | string } | null;
  error?: string;
  at?: string;
  host?: string;
}

export function capture(desk: Desk, input: CaptureInput): number {
  const body = typeof input.body === 'string' ? Buffer.from(input.body, 'utf8') : Buffer.from(input.body);
  const path = input.path ?? '/platform/pay';
  const signature =
    input.signature === undefined || input.signature === null ? null : typeof input.signature === 'string' ? input.signature : sign(body, input.signature.secret);
  const headers: HeaderList = [
    ['Host', input.host ?? '127.0.0.1:8080'],
    ['Content-Type', 'application/json'],
    ['Content-Length', String(body.length)],
    ...(signature !== null ? ([['x-server-authorization', signature]] as HeaderList) : []),
    ...(input.extraHeaders ?? []),
  ];
  const kind = kindOfPath(path);
  const { id } = desk.ctx.store.exchanges.insert({
    direction: 'inbound',
    kind,
    origin: 'proxy',
    at: input.at ?? new Date().toISOString(),
    method: 'POST',
    path,
    query: input.query ?? '',
    target: null,
    headers,
    body,
    size: body.length,
    truncated: false,
    remoteAddress: '127.0.0.1',
    signature: checkSignature(body, signature, desk.ctx.signingCandidates()),
    findings: inspectCallback(path, body),
    keys: extractKeyFields(body),
    sourceId: null,
  });
  if (input.response !== undefined || input.error !== undefined) {
    const r = input.response;
    desk.ctx.store.exchanges.complete(id, {
      response: r ? { status: r.status, headers: r.headers ?? [], body: typeof r.body === 'string' ? Buffer.from(r.body) : Buffer.from(r.body ?? []) } : null,
      error: input.error ?? null,
      durationMs: 3.5,
      completedAt: new Date().toISOString(),
    });
  }
  return id;
}
