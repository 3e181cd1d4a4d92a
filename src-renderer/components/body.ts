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

// ignoreBOM: a byte order mark stays U+FEFF in the text, so the raw view shows the exact bytes and
// describeInvisibles can point it out (the default decoder silently drops it).
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes as text, exactly (a BOM kept), or null when they are not valid UTF-8. */
export function decodeUtf8Exact(bytes: Uint8Array): string | null {
  try {
    return strict.decode(bytes);
  } catch {
    return null;
  }
}

export function decodeBody(b64: string): DecodedBody {
  const bytes = base64ToBytes(b64);
  const text = decodeUtf8Exact(bytes);
  if (text === null) return { bytes, text: null, json: null };
  if (text.trim() === '') return { bytes, text, json: null };
  try {
    // The JSON view reads past a BOM (a finding and the raw view's note already say it is there).
    return { bytes, text, json: { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, '')) } };
  } catch (err) {
    return { bytes, text, json: { ok: false, reason: (err as Error).message } };
  }
}

/** Invisible trouble in raw text: a byte order mark, CRLF line endings, trailing white space. */
export function describeInvisibles(text: string): string[] {
  const notes: string[] = [];
  if (text.startsWith('\uFEFF')) notes.push('starts with a byte order mark (EF BB BF)');
  if (text.includes('\r\n')) notes.push('uses CRLF line endings');
  if (/\s$/.test(text)) notes.push('ends with white space');
  return notes;
}
