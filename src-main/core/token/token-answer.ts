// What the service's answer means for a person: the token, or the one reason there is none.
import { STATUS_CODES } from 'node:http';
import type { DecodedToken, HeaderList } from '../../shared/model';
import { headerValue } from '../outbound/headers';
import { decodeToken } from './decode';

export interface TokenAnswer {
  token: string | null;
  decoded: DecodedToken | null;
  body: string | null;
  error: string | null;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const SHOWN = 500;

/** The body as text for display: UTF-8, or a note with base64 when it is not text. */
function bodyForDisplay(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return `(${bytes.length} bytes, not UTF-8; base64) ${Buffer.from(bytes).toString('base64')}`;
  }
}

const snippet = (text: string): string => (text.length > SHOWN ? `${text.slice(0, SHOWN)}… (${text.length} characters)` : text) || '(empty body)';

export function interpretAnswer(response: { status: number; headers: HeaderList; body: Uint8Array }): TokenAnswer {
  const body = bodyForDisplay(response.body);
  const { status } = response;
  const fail = (error: string): TokenAnswer => ({ token: null, decoded: null, body, error });
  if (status >= 300 && status < 400) {
    const location = headerValue(response.headers, 'location');
    return fail(
      `The service answered ${status} (a redirect${location ? ` to ${location}` : ''}). The desk never follows a redirect, so the API key went nowhere else. Check the base URL (http or https, host, path prefix).`,
    );
  }
  if (status < 200 || status >= 300) return fail(`The service answered ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd() + `: ${snippet(body)}`);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return fail(`The service answered ${status}, but its body is not JSON: ${snippet(body)}`);
  }
  const data = (json as { data?: unknown } | null)?.data;
  const token = typeof data === 'object' && data !== null ? (data as { token?: unknown }).token : undefined;
  if (typeof token !== 'string' || token === '') {
    return fail(`The service answered ${status} with JSON, but without a token at data.token (section 2.5 of the interface): ${snippet(body)}`);
  }
  const decoded = decodeToken(token);
  return { token, decoded, body, error: decoded.error };
}
