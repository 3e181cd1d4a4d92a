// A stored body (base64 of the exact bytes) as the detail pane shows it: the bytes, their UTF-8 text
// when they are valid UTF-8 (else null: show hex), and the parsed JSON when they parse.

export interface DecodedBody {
  bytes: Uint8Array;
  /** null when the bytes are not valid UTF-8. */
  text: string | null;
  json: { ok: true; value: unknown } | { ok: false; reason: string } | null;
}

export function base64ToBytes(b64: string): Uint8Array {
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const strict = new TextDecoder('utf-8', { fatal: true });

export function decodeBody(b64: string): DecodedBody {
  const bytes = base64ToBytes(b64);
  let text: string | null;
  try {
    text = strict.decode(bytes);
  } catch {
    return { bytes, text: null, json: null };
  }
  if (text.trim() === '') return { bytes, text, json: null };
  try {
    return { bytes, text, json: { ok: true, value: JSON.parse(text) } };
  } catch (err) {
    return { bytes, text, json: { ok: false, reason: (err as Error).message } };
  }
}

/** Shows invisible trouble in raw text: a BOM, carriage returns, tabs, a missing final newline is fine. */
export function describeInvisibles(text: string): string[] {
  const notes: string[] = [];
  if (text.startsWith('\uFEFF')) notes.push('starts with a byte order mark (EF BB BF)');
  if (text.includes('\r\n')) notes.push('uses CRLF line endings');
  if (/\s$/.test(text)) notes.push('ends with white space');
  return notes;
}
