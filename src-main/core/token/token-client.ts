// The token client: POST {baseUrl}/v0/wager/operator/create-token with x-operator-id and x-api-key.
// The request is recorded like every send (kind 'token'), but the API key is replaced by its
// fingerprint in everything stored, and scrubbed from the answer too before it is written: a service
// that echoes the key in an error must not leave it in the database or its WAL.
import type { HeaderList, TokenRequest, TokenResult } from '../../shared/model';
import type { DeskContext } from '../desk/context';
import { API_KEY_HEADER, redactedMarker, redactHeaders, storedSecrets } from '../redact';
import { httpSend, wireHeaders, type OutboundResponse } from '../outbound/http-send';
import { joinUrl } from '../outbound/target';
import { extractKeyFields, inspect } from '../protocol';
import { interpretAnswer } from './token-answer';
import { tokenConfig } from './token-config';

export const TOKEN_PATH = '/v0/wager/operator/create-token';

function scrubBytes(bytes: Uint8Array, secret: string): Uint8Array {
  const needle = Buffer.from(secret, 'utf8');
  let data = Buffer.from(bytes);
  let at = data.indexOf(needle);
  if (at < 0) return bytes;
  const marker = Buffer.from(redactedMarker(secret), 'utf8');
  while (at >= 0) {
    data = Buffer.concat([data.subarray(0, at), marker, data.subarray(at + needle.length)]);
    at = data.indexOf(needle, at + marker.length);
  }
  return new Uint8Array(data);
}

function scrubResponse(response: OutboundResponse, secrets: readonly string[]): OutboundResponse {
  let body = response.body;
  for (const s of secrets) body = scrubBytes(body, s);
  return { status: response.status, headers: redactHeaders(response.headers, secrets), body };
}

const scrubText = (text: string, secrets: readonly string[]): string => secrets.reduce((t, s) => t.split(s).join(redactedMarker(s)), text);

export async function requestToken(ctx: DeskContext, request: TokenRequest): Promise<TokenResult> {
  const config = tokenConfig(ctx, request);
  const url = joinUrl(config.baseUrl, TOKEN_PATH);
  const body = new Uint8Array(Buffer.from(JSON.stringify({ userId: config.userId, displayName: config.displayName }), 'utf8'));
  const headers: HeaderList = [
    ['Content-Type', 'application/json'],
    ['Accept', 'application/json'],
    ['x-operator-id', config.operatorId],
    [API_KEY_HEADER, config.apiKey],
  ];
  const secrets = [config.apiKey, ...storedSecrets(ctx)];
  const stored = redactHeaders(headers, secrets);
  const parsed = new URL(url);

  // Committed before the bytes leave, like every send: a request that hangs still leaves its trace.
  const { id } = ctx.store.exchanges.insert({
    direction: 'outbound',
    kind: 'token',
    origin: 'token',
    at: new Date().toISOString(),
    method: 'POST',
    path: parsed.pathname,
    query: parsed.search.replace(/^\?/, ''),
    target: url,
    headers: wireHeaders(stored, body, parsed),
    body,
    size: body.byteLength,
    truncated: false,
    remoteAddress: null,
    signature: null,
    findings: inspect('token-request', body),
    keys: extractKeyFields(body),
    sourceId: null,
  });

  const outcome = await httpSend({
    url,
    method: 'POST',
    headers,
    body,
    timeoutMs: ctx.options.outboundTimeoutMs,
    allowSelfSigned: config.profile?.allowSelfSigned ?? false,
  });
  const response = outcome.ok ? scrubResponse(outcome.response, secrets) : null;
  const error = outcome.ok ? null : scrubText(outcome.error, secrets);
  ctx.store.exchanges.complete(id, { response, error, durationMs: outcome.durationMs, completedAt: new Date().toISOString() });

  if (!response) return { exchangeId: id, status: null, token: null, decoded: null, body: null, error };
  if (response.status >= 200 && response.status < 300) ctx.store.exchanges.addFindings(id, inspect('token-response', response.body));
  const answer = interpretAnswer(response);
  return { exchangeId: id, status: response.status, ...answer };
}

/** Token requests, newest first. */
export function tokenHistory(ctx: DeskContext, limit = 50) {
  return ctx.store.exchanges.list({ direction: 'outbound', kind: 'token', limit }).items;
}
