// Strict base64, the one rule the core (body edits, HAR import) and the UI (the composer's raw-bytes
// field) apply alike: Buffer.from(text, 'base64') and atob skip or bend what they do not know, so a
// typo would silently become other bytes instead of an error. No node:* here: the renderer imports it.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The text without white space when it is standard base64, else null. */
export function compactBase64(text: string): string | null {
  const compact = text.replace(/\s+/g, '');
  return compact.length % 4 === 1 || !BASE64.test(compact) ? null : compact;
}
