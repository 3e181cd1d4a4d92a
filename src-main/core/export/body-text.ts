// Bodies are bytes. HAR and Markdown carry text, so a body goes as UTF-8 text when it is valid UTF-8
// (decoding and re-encoding then gives the same bytes back), and as base64 otherwise.

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes as text when they are valid UTF-8, else null. A leading BOM is kept, not swallowed. */
export function utf8OrNull(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

export type BodyText = { text: string; base64: false } | { text: string; base64: true };

/** The body as HAR text: UTF-8 where that round-trips byte for byte, base64 otherwise. */
export function bodyText(bytes: Uint8Array): BodyText {
  const text = utf8OrNull(bytes);
  return text !== null ? { text, base64: false } : { text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'), base64: true };
}
