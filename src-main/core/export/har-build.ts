// ExchangeDetail -> HAR 1.2 entry. Bodies are exact (UTF-8 text, or base64 where the bytes are not
// UTF-8), headers keep their order, and every header value that holds a secret is redacted.
import { STATUS_CODES } from 'node:http';
import type { ExchangeDetail, HeaderList } from '../../shared/model';
import { headerValue } from '../outbound/headers';
import { bodyText } from './body-text';
import type { Har, HarContent, HarEntry, HarNameValue, HarPostData, HarRequest, HarResponse } from './har-types';
import { redactHeaders, redactUrlPart } from '../redact';
import { exchangeUrl } from './request-url';

const HAR_CREATOR = { name: 'Wager Desk', version: '0.1.0' } as const;

const nameValues = (headers: HeaderList): HarNameValue[] => headers.map(([name, value]) => ({ name, value }));

function queryString(query: string): HarNameValue[] {
  if (query === '') return [];
  return [...new URLSearchParams(query)].map(([name, value]) => ({ name, value }));
}

function mimeTypeOf(headers: HeaderList): string {
  return headerValue(headers, 'content-type') ?? 'application/octet-stream';
}

function postData(bytes: Buffer, headers: HeaderList): HarPostData | undefined {
  if (bytes.length === 0) return undefined;
  const body = bodyText(bytes);
  return body.base64 ? { mimeType: mimeTypeOf(headers), text: body.text, _encoding: 'base64' } : { mimeType: mimeTypeOf(headers), text: body.text };
}

function request(x: ExchangeDetail, secrets: readonly string[]): HarRequest {
  const bytes = Buffer.from(x.request.bodyBase64, 'base64');
  const headers = redactHeaders(x.request.headers, secrets);
  const data = postData(bytes, headers);
  return {
    method: x.request.method,
    // Rows written before paths and queries were redacted may still hold a secret there.
    url: redactUrlPart(exchangeUrl(x), secrets),
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: nameValues(headers),
    queryString: queryString(redactUrlPart(x.request.query, secrets)),
    ...(data ? { postData: data } : {}),
    headersSize: -1,
    bodySize: bytes.length,
  };
}

function response(x: ExchangeDetail, secrets: readonly string[]): HarResponse {
  if (!x.response) {
    // No answer: Chromium and HTTP Toolkit write status 0 and an empty response; the reason goes in _error.
    return {
      status: 0,
      statusText: '',
      httpVersion: '',
      cookies: [],
      headers: [],
      content: { size: 0, mimeType: 'x-unknown' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      _error: x.error ?? (x.completedAt === null ? 'No response was recorded (the exchange had not completed).' : 'No response.'),
    };
  }
  const bytes = Buffer.from(x.response.bodyBase64, 'base64');
  const headers = redactHeaders(x.response.headers, secrets);
  const content: HarContent = { size: bytes.length, mimeType: mimeTypeOf(headers) };
  if (bytes.length > 0) {
    const body = bodyText(bytes);
    content.text = body.text;
    if (body.base64) content.encoding = 'base64';
  }
  return {
    status: x.response.status,
    statusText: STATUS_CODES[x.response.status] ?? '',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: nameValues(headers),
    content,
    redirectURL: headerValue(x.response.headers, 'location') ?? '',
    headersSize: -1,
    bodySize: bytes.length,
  };
}

function comment(x: ExchangeDetail): string | undefined {
  if (x.signature.verdict === null) return undefined;
  const diagnosis = x.signature.diagnosis ? `: ${x.signature.diagnosis.summary}` : '';
  return `signature ${x.signature.verdict}${diagnosis}`;
}

export function harEntry(x: ExchangeDetail, secrets: readonly string[]): HarEntry {
  // The desk measures one duration per exchange; HAR wants phases, so all of it counts as waiting.
  const time = Math.max(0, x.durationMs ?? 0);
  const note = comment(x);
  return {
    startedDateTime: x.at,
    time,
    request: request(x, secrets),
    response: response(x, secrets),
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: time, receive: 0 },
    ...(note ? { comment: note } : {}),
    _wagerDesk: {
      id: x.id,
      direction: x.direction,
      origin: x.origin,
      kind: x.kind,
      profile: x.profile,
      verdict: x.signature.verdict,
      sourceId: x.sourceId,
      tags: x.tags,
      size: x.request.size,
      truncated: x.request.truncated,
    },
  };
}

/** The HAR around `entries` (an empty list: its frame, for writing the entries one at a time, har-text.ts). */
export function harWith(entries: HarEntry[], comment?: string): Har {
  return {
    log: {
      version: '1.2',
      creator: { ...HAR_CREATOR },
      entries,
      ...(comment ? { comment } : {}),
    },
  };
}
