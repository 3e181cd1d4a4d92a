// Strict base64, shared by body edits and HAR import: Buffer.from(text, 'base64') skips characters it
// does not know, so a typo would silently become other bytes instead of an error.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes of standard base64 (white space ignored), or null when the text is not base64. */
export function strictBase64(text: string): Buffer | null {
  const compact = text.replace(/\s+/g, '');
  if (compact.length % 4 === 1 || !BASE64.test(compact)) return null;
  return Buffer.from(compact, 'base64');
}
