// The token client: POST {baseUrl}/v0/wager/operator/create-token with x-operator-id and x-api-key.
// The request is recorded like every send (kind 'token'), but the API key is replaced by its
// fingerprint in everything stored, and scrubbed from the answer too before it is written: a service
// that echoes the key in an error must not leave it in the database or its WAL.
import type { HeaderList, TokenRequest, TokenResult } from '../../shared/model';
import type { OutboundDeps } from '../outbound/deps';
import { API_KEY_HEADER } from '../redact';
import { recordingDeps } from '../outbound/deps';
import { sendAndRecord } from '../outbound/record';
import { joinUrl } from '../outbound/target';
import { inspect, toBytes } from '../protocol';
import { interpretAnswer } from './token-answer';
import { tokenConfig } from './token-config';

const TOKEN_PATH = '/v0/wager/operator/create-token';

export async function requestToken(ctx: OutboundDeps, request: TokenRequest): Promise<TokenResult> {
  const config = tokenConfig(ctx, request);
  const body = toBytes({ userId: config.userId, displayName: config.displayName });
  const headers: HeaderList = [
    ['Content-Type', 'application/json'],
    ['Accept', 'application/json'],
    ['x-operator-id', config.operatorId],
    [API_KEY_HEADER, config.apiKey],
  ];
  const detail = await sendAndRecord(recordingDeps(ctx, undefined, null), {
    request: {
      url: joinUrl(config.baseUrl, TOKEN_PATH),
      method: 'POST',
      headers,
      body,
      timeoutMs: ctx.options.outboundTimeoutMs,
      allowSelfSigned: config.allowSelfSigned,
    },
    origin: 'token',
    sourceId: null,
    signature: null,
    secrets: [config.apiKey],
  });

  // The answer as stored (secrets scrubbed) is also the one shown: the key never comes back in clear.
  const { id, response } = detail;
  if (!response) return { exchangeId: id, status: null, token: null, decoded: null, body: null, error: detail.error };
  const answer = { status: response.status, headers: response.headers, body: new Uint8Array(Buffer.from(response.bodyBase64, 'base64')) };
  if (answer.status >= 200 && answer.status < 300) {
    const findings = inspect('token-response', answer.body);
    await ctx.log.write((rows) => rows.addFindings(id, findings), 0);
  }
  return { exchangeId: id, status: answer.status, ...interpretAnswer(answer) };
}

/** Token requests, newest first. */
export async function tokenHistory(ctx: OutboundDeps, limit = 50) {
  return (await ctx.log.list({ direction: 'outbound', kind: 'token', limit })).items;
}
