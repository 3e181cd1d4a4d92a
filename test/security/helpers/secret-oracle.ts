// Looks for a secret in stored or exported bytes in every form the desk promises to redact, written
// apart from the redactor (src-main/core/redact/secret-forms.ts) so that the two cannot share a blind spot:
// fixed forms (the canary helper's plain, UTF-16, hex and base64 forms; percent-encoded once and twice;
// JSON `\u` escapes), then decoded views of the whole text (JSON escapes undone, percent escapes undone
// once and twice), each searched again for the plain secret.
import { formsIn } from './canary';

function percentEvery(raw: Buffer, prefix: string, upper: boolean): string {
  return [...raw].map((b) => `%${prefix}${b.toString(16).padStart(2, '0')[upper ? 'toUpperCase' : 'toLowerCase']()}`).join('');
}

function unicodeEvery(secret: string, upper: boolean): string {
  return [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')[upper ? 'toUpperCase' : 'toLowerCase']()}`).join('');
}

/** The further fixed forms: percent-encoded (each way, once and twice) and `\u`-escaped. */
function moreForms(secret: string): Array<[string, string]> {
  const raw = Buffer.from(secret, 'utf8');
  return [
    ['percent', percentEvery(raw, '', false)],
    ['PERCENT', percentEvery(raw, '', true)],
    ['uri', encodeURIComponent(secret)],
    ['percent2', percentEvery(raw, '25', false)],
    ['PERCENT2', percentEvery(raw, '25', true)],
    ['uri2', encodeURIComponent(encodeURIComponent(secret))],
    ['\\u', unicodeEvery(secret, false)],
    ['\\U', unicodeEvery(secret, true)],
  ].filter(([, form]) => form !== secret) as Array<[string, string]>;
}

function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return Buffer.from(run.replace(/%/g, ''), 'hex').toString('latin1');
    }
  });
}

const unicodeDecoded = (text: string): string => text.replace(/\\u([0-9A-Fa-f]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** A place's text and its decoded views, made once for every secret looked for. */
interface Views {
  bytes: Uint8Array | string;
  text: string;
  decoded: Array<[string, string]>;
}

function viewsOf(bytes: Uint8Array | string): Views {
  const buffer = typeof bytes === 'string' ? null : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = buffer === null ? (bytes as string) : buffer.toString('latin1');
  const utf8 = buffer === null ? (bytes as string) : buffer.toString('utf8');
  const once = percentDecoded(utf8);
  const decoded: Array<[string, string]> = [
    ['\\u-decoded', unicodeDecoded(utf8)],
    ['percent-decoded', once],
    ['percent-decoded twice', percentDecoded(once)],
  ];
  return { bytes, text, decoded: decoded.filter(([, v]) => v !== utf8) };
}

function revealedIn(views: Views, secret: string): string[] {
  const found = formsIn(views.bytes, secret);
  for (const [name, form] of moreForms(secret)) if (views.text.includes(form)) found.push(name);
  if (found.length > 0) return found;
  return views.decoded.filter(([, view]) => view.includes(secret)).map(([name]) => name);
}

/** The names of the forms of `secret` that `bytes` holds (empty when none). */
export function revealed(bytes: Uint8Array | string, secret: string): string[] {
  return revealedIn(viewsOf(bytes), secret);
}

/** Every place that holds any of the secrets, with the forms found. */
export function secretLeaks(places: Array<{ label: string; bytes: Uint8Array | string }>, secrets: readonly string[]): string[] {
  const out: string[] = [];
  for (const place of places) {
    const views = viewsOf(place.bytes);
    for (const secret of secrets) {
      const forms = revealedIn(views, secret);
      if (forms.length > 0) out.push(`${place.label} holds ${secret.slice(0, 6)}… as ${forms.join(', ')}`);
    }
  }
  return out;
}
