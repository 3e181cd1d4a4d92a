// The composer edits a body as text but sends bytes. Text and bytes convert exactly: strict UTF-8
// decoding that keeps a byte order mark (decodeUtf8Exact: EF BB BF stays U+FEFF in the editor)
// and TextEncoder back. Valid UTF-8 round-trips byte for byte; a body that is not valid UTF-8 has no
// text (null) and is kept as base64.
import { compactBase64 } from '../../src-main/shared/base64';
import { base64ToBytes, decodeUtf8Exact } from './body';

const encoder = new TextEncoder();

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  // Chunks keep String.fromCharCode's argument list short for large bodies.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function textOfBase64(b64: string): string | null {
  return decodeUtf8Exact(base64ToBytes(b64));
}

export function base64OfText(text: string): string {
  return bytesToBase64(encoder.encode(text));
}

export function byteLengthOfText(text: string): number {
  return encoder.encode(text).length;
}

/** Strict base64 (white space ignored), as the desk accepts it. */
export function isBase64(text: string): boolean {
  return compactBase64(text) !== null;
}

export { base64ToBytes };
