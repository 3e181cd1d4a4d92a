// Reads a body exactly as received: strict UTF-8 decoding of the raw bytes, then one JSON.parse.
// Never re-serializes, because the signature and the operator's parser both see these bytes.
import type { Finding } from '../../shared/model';
import { finding } from './finding-text';

/**
 * How deep the desk follows a body's nesting. Callbacks are flat objects; anything deeper comes from a
 * hostile or broken sender, and the work done per level (parsing, paths, re-serializations) must stay
 * bounded on the proxy's event loop. A deeper body is judged "nested deeper than N" and not parsed.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * How many members one object may have before the desk stops short of parsing it. A callback has a dozen
 * fields; an object of tens of thousands of keys costs V8 (a dictionary-mode object), the inspection and
 * the duplicate-key search hundreds of milliseconds a megabyte. Arrays are not limited: long arrays of
 * small values parse fast.
 */
export const MAX_OBJECT_MEMBERS = 1_000;

export type BodyRead = { ok: true; value: unknown; text: string; findings: Finding[] } | { ok: false; findings: Finding[] };

// fatal: refuse malformed UTF-8 instead of inventing U+FFFD. The default ignoreBOM=false strips a
// leading BOM, which we report separately. A decoder without stream:true keeps no state: reusable.
const strictDecoder = new TextDecoder('utf-8', { fatal: true });
const lenientDecoder = new TextDecoder('utf-8');

function hasUtf8Bom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

export function readJsonBody(bytes: Uint8Array): BodyRead {
  if (bytes.length === 0) {
    return { ok: false, findings: [finding('error', '$', 'body is empty; a JSON object was expected')] };
  }
  const findings: Finding[] = [];
  if (hasUtf8Bom(bytes)) {
    findings.push(finding('warning', '$', 'body starts with a UTF-8 byte order mark (EF BB BF); many JSON parsers reject it'));
  }

  let text: string;
  try {
    text = strictDecoder.decode(bytes);
  } catch {
    findings.push(finding('error', '$', utf8ErrorMessage(bytes)));
    return { ok: false, findings };
  }

  if (text.trim() === '') {
    findings.push(finding('error', '$', 'body contains only whitespace; a JSON object was expected'));
    return { ok: false, findings };
  }

  // Checked before parsing: building half a million nested arrays, or an object of 90,000 keys, costs
  // the event loop more than the 100 ms a capture may take, and a callback is a small flat object.
  const shape = shapeProblem(text, MAX_JSON_DEPTH, MAX_OBJECT_MEMBERS);
  if (shape !== null) {
    const what =
      shape === 'depth'
        ? `is nested deeper than ${MAX_JSON_DEPTH} levels`
        : `has an object with more than ${MAX_OBJECT_MEMBERS.toLocaleString('en-US')} members`;
    findings.push(finding('error', '$', `body ${what}; the desk does not parse it further (a callback is a small, flat JSON object)`));
    return { ok: false, findings };
  }

  try {
    return { ok: true, value: JSON.parse(text), text, findings };
  } catch (err) {
    findings.push(finding('error', '$', jsonErrorMessage(text, err)));
    return { ok: false, findings };
  }
}

/**
 * Whether the JSON text (or its UTF-8 bytes) opens more than `max` arrays or objects inside one another.
 * One linear scan that stops at the first level past `max`; brackets inside strings do not count. Works on
 * bytes as well as on text because every character it looks at is ASCII.
 */
export function nestedDeeperThan(json: string | Uint8Array, max: number): boolean {
  return shapeProblem(json, max, Number.POSITIVE_INFINITY) === 'depth';
}

/**
 * The first limit the JSON text (or its UTF-8 bytes) breaks: 'depth' when more than `maxDepth` arrays or
 * objects open inside one another, 'members' when one object has more than `maxMembers` members; null
 * when neither. One linear scan that stops at the first breach; brackets and commas inside strings do not
 * count. Works on bytes as well as on text because every character it looks at is ASCII.
 */
export function shapeProblem(json: string | Uint8Array, maxDepth: number, maxMembers: number): 'depth' | 'members' | null {
  const text = typeof json === 'string';
  const at = text ? (i: number) => json.charCodeAt(i) : (i: number) => json[i]!;
  // The closing quote of the string opened at `start` (or the end): found with indexOf, which skips a long
  // string far faster than a loop over its characters.
  const stringEnd = (start: number): number => {
    let from = start + 1;
    for (;;) {
      const quote = text ? json.indexOf('"', from) : json.indexOf(0x22, from);
      if (quote < 0) return json.length;
      let backslashes = 0;
      for (let j = quote - 1; j > start && at(j) === 0x5c; j--) backslashes++;
      if (backslashes % 2 === 0) return quote;
      from = quote + 1;
    }
  };
  // Per open level: the commas seen so far in an object, or -1 for an array (not counted).
  const commas: number[] = [];
  for (let i = 0; i < json.length; i++) {
    const c = at(i);
    if (c === 0x22 /* " */) {
      i = stringEnd(i);
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (commas.length >= maxDepth) return 'depth';
      commas.push(c === 0x7b ? 0 : -1);
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      commas.pop();
    } else if (c === 0x2c /* , */) {
      const top = commas.length - 1;
      if (top >= 0 && commas[top]! >= 0 && ++commas[top]! >= maxMembers) return 'members';
    }
  }
  return null;
}

/** "body is not valid JSON: <engine message> (line L, column C)", the position only when the engine gives one. */
function jsonErrorMessage(text: string, err: unknown): string {
  // V8 quotes a stretch of the input in some messages ('Unexpected token 'o', "token=..." is not valid
  // JSON'): a body's bytes (a secret among them) must not reach a finding, so the excerpt is dropped.
  const raw = (err instanceof Error ? err.message : String(err)).replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '');
  const match = /at position (\d+)/.exec(raw);
  let where = '';
  if (match?.[1] !== undefined && !/line \d+/.test(raw)) {
    const position = Number(match[1]);
    const before = text.slice(0, position);
    const line = before.split('\n').length;
    const column = position - before.lastIndexOf('\n');
    where = ` (line ${line}, column ${column})`;
  }
  return `body is not valid JSON: ${raw}${where}`;
}

/** Names the first offending byte, so staff can find it in a hex view; also spots UTF-16 and Latin-1. */
function utf8ErrorMessage(bytes: Uint8Array): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return 'body is not valid UTF-8: it starts with a UTF-16 byte order mark; JSON must be sent as UTF-8';
  }
  const offset = firstInvalidUtf8Offset(bytes);
  if (offset === null) return 'body is not valid UTF-8; JSON must be sent as UTF-8';
  const byte = bytes[offset] ?? 0;
  const hex = byte.toString(16).toUpperCase().padStart(2, '0');
  const latin1 = byte >= 0xa0 ? ` (in Latin-1 that byte is "${String.fromCharCode(byte)}": was the body encoded as Latin-1?)` : '';
  return `body is not valid UTF-8: byte 0x${hex} at offset ${offset} does not start a valid sequence${latin1}; JSON must be sent as UTF-8`;
}

/**
 * Byte offset of the first malformed sequence: decode leniently, then look at each U+FFFD; the first
 * one whose bytes are not a real encoded U+FFFD (EF BF BD) is where decoding failed.
 */
function firstInvalidUtf8Offset(bytes: Uint8Array): number | null {
  const text = lenientDecoder.decode(bytes);
  const encoder = new TextEncoder();
  let from = 0; // character index in text
  let offset = hasUtf8Bom(bytes) ? 3 : 0; // byte offset of text[from]
  for (;;) {
    const index = text.indexOf('\uFFFD', from);
    if (index < 0) return null;
    // Every character before this one decoded cleanly, so re-encoding it gives its exact byte length.
    offset += encoder.encode(text.slice(from, index)).length;
    if (!(bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd)) return offset;
    from = index + 1;
    offset += 3;
  }
}
