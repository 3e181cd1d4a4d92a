import { DeskFailure } from './result';

/**
 * Checks a base URL (an operator's callback base, the proxy's upstream, the service's base URL): http or
 * https, no query and no fragment, since paths are appended to it. Returns the URL without trailing
 * slashes. One rule for every place a base URL is given, so a profile never stores one that sends refuse.
 */
export function checkBaseUrl(what: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new DeskFailure('bad-input', `${what} "${raw}" is not a URL; give a base URL like http://127.0.0.1:4000.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DeskFailure('bad-input', `${what} must be an http or https URL, not ${url.protocol}`);
  // Credentials in a URL would be stored, listed and logged with it: refused, never kept (nor quoted).
  if (url.username !== '' || url.password !== '') {
    throw new DeskFailure(
      'bad-input',
      `${what} cannot carry credentials (user:password@ before the host): they would be stored and shown in clear; give ${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname} and put a key where the desk keeps secrets (--api-key-env, --secret-env).`,
    );
  }
  if (url.search !== '' || url.hash !== '') throw new DeskFailure('bad-input', `${what} "${raw}" is a base URL: it cannot carry a query or fragment.`);
  return raw.trim().replace(/\/+$/, '');
}
