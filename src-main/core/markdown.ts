// Markdown for tickets and reports, where values from the wire are shown as they are. Anything taken
// from a capture goes through one of these, so that no value can open a fence, a heading, a list, a
// table cell or an HTML block, and no raw HTML reaches a renderer.

/** A fenced block that no backtick run inside the text can close early. */
export function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text}\n${f}`;
}

/**
 * One line: line breaks and other control characters shown as escapes (\n, \u0000), so that a value
 * never starts a block (a heading, a fence, a quote, an HTML block) on a line of its own.
 */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/**
 * Text outside code, always after other text on its line: the characters that start code, emphasis,
 * links, raw HTML, entities, strike-through, headings or table cells are backslash-escaped.
 */
export function escapeText(text: string): string {
  return oneLine(text).replace(/[\\`*_[\]<>#|~&]/g, (c) => `\\${c}`);
}

/** A code span that holds the value exactly (backticks and `<script>` included): its delimiter is longer than any backtick run inside. */
export function code(text: string): string {
  return codeSpan(oneLine(text));
}

function codeSpan(value: string): string {
  if (value === '') return '`\u00a0`';
  const longest = Math.max(0, ...[...value.matchAll(/`+/g)].map((m) => m[0].length));
  const delimiter = '`'.repeat(longest + 1);
  const pad = value.startsWith('`') || value.endsWith('`') || (value.startsWith(' ') && value.endsWith(' ')) ? ' ' : '';
  return `${delimiter}${pad}${value}${pad}${delimiter}`;
}
