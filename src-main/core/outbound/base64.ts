// Strict base64 decoding, shared by body edits and HAR import (the rule itself: shared/base64.ts).
import { compactBase64 } from '../../shared/base64';

/** The bytes of standard base64 (white space ignored), or null when the text is not base64. */
export function strictBase64(text: string): Buffer | null {
  const compact = compactBase64(text);
  return compact === null ? null : Buffer.from(compact, 'base64');
}
