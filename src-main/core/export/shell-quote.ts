// Quoting for a POSIX shell (bash, zsh, dash), so a copied command sends exactly the bytes it shows.

/** Characters a terminal paste could mangle or run (controls, DEL), bar the newline a body may hold. */
const UNSAFE_IN_BODY = /[\u0000-\u0009\u000b-\u001f\u007f]/;
const UNSAFE_IN_ARG = /[\u0000-\u001f\u007f]/;

/** 'text' with every ' written as '\'' : inside single quotes a shell changes nothing. */
export function singleQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A literal argument: bare when it holds no shell syntax, single quotes where that is paste-safe, else $'...' with \xHH escapes (bash, zsh). */
export function shellArg(text: string): string {
  if (/^[A-Za-z0-9_.,:/@+=-]+$/.test(text)) return text;
  if (!UNSAFE_IN_ARG.test(text)) return singleQuote(text);
  let out = "$'";
  for (const byte of Buffer.from(text, 'utf8')) {
    if (byte === 0x5c) out += '\\\\';
    else if (byte === 0x27) out += "\\'";
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return `${out}'`;
}

/** Whether the text can stand as a single-quoted literal in a pasted command (a newline is fine there). */
export function isPasteSafeText(text: string): boolean {
  return !UNSAFE_IN_BODY.test(text);
}

/**
 * A printf format that writes exactly these bytes: printable ASCII as itself, '%' as '%%', everything
 * else (quotes, backslash, controls, NUL, bytes above 0x7f, a leading '-') as a three-digit octal escape, which
 * bash's, zsh's and dash's printf all read the same way.
 */
export function printfFormat(bytes: Uint8Array): string {
  let out = '';
  for (const [i, byte] of bytes.entries()) {
    if (byte === 0x25) out += '%%';
    // A format that starts with '-' would be read as an option of printf.
    else if (i === 0 && byte === 0x2d) out += '\\055';
    else if (byte >= 0x20 && byte < 0x7f && byte !== 0x27 && byte !== 0x5c) out += String.fromCharCode(byte);
    else out += `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return `'${out}'`;
}
