// "Copy as cURL": a command that sends the same request again, byte for byte. Every header goes,
// the signature included, except those curl derives from the URL and the body itself (Host,
// Content-Length, framing): copying those would break the moment the body or target changes.
import type { HeaderList } from '../../shared/model';
import { CONNECTION_HEADERS, headerValue } from '../outbound/headers';
import { utf8OrNull } from './body-text';
import { splitUrl } from './request-url';
import { isPasteSafeText, printfFormat, shellArg, singleQuote } from './shell-quote';

export interface CurlRequest {
  method: string;
  url: string;
  headers: HeaderList;
  body: Uint8Array;
  /** Lines shown above the command as shell comments. */
  notes?: string[];
}

const NO_BODY_METHODS = new Set(['GET', 'HEAD']);

/** The body as a --data-binary literal, or null when it must come through stdin to stay exact. */
function literalBody(body: Uint8Array): string | null {
  const text = utf8OrNull(body);
  // A --data-binary value that starts with @ names a file: such a body goes through stdin.
  if (text === null || !isPasteSafeText(text) || text.startsWith('@')) return null;
  return singleQuote(text);
}

export function curlCommand(req: CurlRequest): string {
  const notes = [...(req.notes ?? [])];
  // curl would expand [] and {} as globs and fold /./ and /../ segments: both would change the request.
  const path = splitUrl(req.url)?.path ?? '';
  const flags = [...(/[[\]{}]/.test(req.url) ? ['--globoff'] : []), ...(/(^|\/)\.\.?(\/|$)/.test(path) ? ['--path-as-is'] : [])];
  // The first line says what and where; each header and the body follow on a line of their own.
  const args: string[] = [[`-X ${shellArg(req.method)}`, ...flags, shellArg(req.url)].join(' ')];
  for (const [name, value] of req.headers) {
    if (CONNECTION_HEADERS.includes(name.toLowerCase())) continue;
    args.push(`-H ${shellArg(`${name}: ${value}`)}`);
  }

  const sendsBody = req.body.length > 0 || !NO_BODY_METHODS.has(req.method.toUpperCase());
  let prefix = '';
  if (sendsBody) {
    // Without a Content-Type of its own, curl would add application/x-www-form-urlencoded.
    if (headerValue(req.headers, 'content-type') === null) args.push(`-H 'Content-Type:'`);
    const literal = literalBody(req.body);
    if (literal !== null) args.push(`--data-binary ${literal}`);
    else {
      notes.push(`The body (${req.body.length} bytes) is not printable text: printf writes its exact bytes to curl's stdin.`);
      prefix = `printf ${printfFormat(req.body)} | `;
      args.push('--data-binary @-');
    }
  }
  const comments = notes.map((n) => `# ${n.replace(/[\r\n]+/g, ' ')}\n`).join('');
  return `${comments}${prefix}curl ${args.join(' \\\n  ')}`;
}
