// Markdown for tickets and reports, where bodies from the wire are shown as they are.

/** A fenced block that no backtick run inside the text can close early. */
export function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text}\n${f}`;
}
