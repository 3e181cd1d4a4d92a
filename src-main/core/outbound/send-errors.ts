// Turns a Node network error into a kind and a sentence a support person can act on. The raw code
// stays at the end in parentheses, for whoever has to dig further.

export type SendErrorCode = 'refused' | 'dns' | 'tls' | 'timeout' | 'reset' | 'bad-url' | 'other';

export interface SendError {
  errorCode: SendErrorCode;
  error: string;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);
const TLS_HINTS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the server certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the certificate chain ends in a self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the certificate is not signed by an authority this computer trusts',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the certificate is not signed by an authority this computer trusts',
  CERT_HAS_EXPIRED: 'the server certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the certificate is for another host name',
};

function isTls(code: string): boolean {
  return code in TLS_HINTS || /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|EPROTO$)/.test(code);
}

/** host:port as the user would type it, with the scheme's default port made explicit. */
function hostAndPort(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

export function timeoutError(url: URL, timeoutMs: number): SendError {
  const seconds = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 100) / 10} s` : `${timeoutMs} ms`;
  return {
    errorCode: 'timeout',
    error: `No complete answer from ${hostAndPort(url)} within ${seconds} (timeout): the server is slow, stuck, or a firewall drops the connection.`,
  };
}

export function badUrlError(raw: string, why: string): SendError {
  return { errorCode: 'bad-url', error: `Cannot send to "${raw}": ${why}.` };
}

export function describeSendError(err: unknown, url: URL): SendError {
  const e = err as NodeJS.ErrnoException | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const where = hostAndPort(url);
  const detail = e?.message ?? String(err);
  if (code === 'ECONNREFUSED') {
    return { errorCode: 'refused', error: `Connection refused by ${where}: is the operator's server running? (ECONNREFUSED)` };
  }
  if (DNS_CODES.has(code)) {
    return { errorCode: 'dns', error: `Host not found: ${url.hostname} (DNS lookup failed, ${code}). Check the host name in the URL.` };
  }
  if (isTls(code)) {
    const hint = TLS_HINTS[code];
    const advice =
      code === 'EPROTO' || code.startsWith('ERR_SSL_')
        ? ' Is the server really speaking https on this port?'
        : ' If this is a test server you trust, turn on "accept a self-signed certificate" in the profile.';
    return { errorCode: 'tls', error: `TLS error with ${where}: ${hint ?? detail}.${advice} (${code})` };
  }
  if (code === 'ETIMEDOUT') {
    return { errorCode: 'timeout', error: `Connecting to ${where} timed out: the host does not answer (ETIMEDOUT).` };
  }
  if (RESET_CODES.has(code) || detail === 'socket hang up' || detail === 'aborted') {
    return { errorCode: 'reset', error: `The connection to ${where} was closed before a complete answer arrived (${code || detail}).` };
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return { errorCode: 'other', error: `No network route to ${where} (${code}): check the network or VPN.` };
  }
  return { errorCode: 'other', error: `Sending to ${where} failed: ${detail}${code ? ` (${code})` : ''}.` };
}
