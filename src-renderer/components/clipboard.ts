/**
 * Writes text to the clipboard; false where the page may not (no permission, an insecure context),
 * so the caller can show the text for copying by hand instead.
 */
export async function writeClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
