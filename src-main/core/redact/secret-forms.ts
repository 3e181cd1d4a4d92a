// Every form a secret may take in what the desk keeps, made once per set of secrets (the set changes
// rarely; a request is redacted on every capture), and the scan that finds and replaces them.
//
// The forms: the text itself; hex in either case; base64 and base64url at each of the three alignments
// (only the secret's whole 3-byte groups: the edge characters depend on the bytes around it);
// percent-encoded (the usual way and every byte) and double percent-encoded; JSON escapes (`\/`, every
// character as `\uXXXX`). Beyond these fixed forms, the scan decodes what may hide a secret in a
// form it cannot list (a partly escaped JSON string, a partly percent-encoded token) and replaces the
// whole string or token when the decoded text holds one.
import { fingerprint } from '../signing';

/** A secret shorter than this is not looked for: it would match everywhere, and protects nothing anyway. */
export const MIN_REDACTED_SECRET = 4;

/** The marker that stands in for a secret: enough to tell two secrets apart, nothing to recover one. */
export function redactedMarker(secret: string): string {
  return `[redacted sha256:${fingerprint(secret)}]`;
}

interface Needle {
  bytes: Buffer;
  text: string;
  /** Which secret (index into the set). */
  of: number;
  /** A base64 core: its hit is widened to the whole run of base64 characters around it (no tail left). */
  base64: boolean;
  /** A byte the data must hold for this form to be there at all ('%' or '\'), or -1: a cheap skip. */
  needs: number;
}

interface Hit {
  from: number;
  to: number;
  of: number;
}

const PERCENT = 0x25;
const BACKSLASH = 0x5c;

function percentEvery(bytes: Buffer, prefix: string, upper: boolean): string {
  let out = '';
  for (const b of bytes) {
    const hex = b.toString(16).padStart(2, '0');
    out += `%${prefix}${upper ? hex.toUpperCase() : hex}`;
  }
  return out;
}

function unicodeEscaped(secret: string, upper: boolean): string {
  let out = '';
  for (let i = 0; i < secret.length; i++) {
    const hex = secret.charCodeAt(i).toString(16).padStart(4, '0');
    out += `\\u${upper ? hex.toUpperCase() : hex}`;
  }
  return out;
}

/**
 * The base64 of the secret's whole 3-byte groups, for a secret starting `shift` bytes into a group. Whole
 * groups only, not every character its bits reach: a stored form may change the secret's last bytes (a
 * base64 secret's "=" percent-encoded, then the whole body echoed in base64), and the groups before them
 * still give the secret away.
 */
function base64Core(raw: Buffer, shift: number): string {
  const encoded = Buffer.concat([Buffer.alloc(shift), raw]).toString('base64');
  return encoded.slice(Math.ceil(shift / 3) * 4, Math.floor((shift + raw.length) / 3) * 4);
}

/** The texts that betray `secret`: every fixed form above, and whether each is a base64 core. */
export function formsOf(secret: string): Array<{ text: string; base64: boolean }> {
  const raw = Buffer.from(secret, 'utf8');
  const json = JSON.stringify(secret).slice(1, -1);
  const uri = encodeURIComponent(secret);
  const plain = [
    secret,
    json,
    json.replace(/\//g, '\\/'),
    unicodeEscaped(secret, false),
    unicodeEscaped(secret, true),
    uri,
    uri.replace(/%20/g, '+'),
    percentEvery(raw, '', false),
    percentEvery(raw, '', true),
    encodeURIComponent(uri),
    percentEvery(raw, '25', false),
    percentEvery(raw, '25', true),
    raw.toString('hex'),
    raw.toString('hex').toUpperCase(),
  ];
  const out = new Map<string, boolean>(plain.map((t) => [t, false]));
  for (let shift = 0; shift < 3; shift++) {
    const core = base64Core(raw, shift);
    if (core.length < MIN_REDACTED_SECRET) continue;
    for (const c of [core, core.replace(/\+/g, '-').replace(/\//g, '_')]) if (!out.has(c)) out.set(c, true);
  }
  return [...out].map(([text, base64]) => ({ text, base64 }));
}

/** Characters of a base64 run: both alphabets; `slash` false where "/" separates (a path). */
function isBase64Char(c: number, slash: boolean): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x5f || (slash && c === 0x2f);
}

// An escape that may hide part of a secret outside a JSON string (a percent or `\u` escape).
const ESCAPE = /%[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}/g;
// What separates tokens ("/" and "?" too in a path or query): a token with an escape is decoded whole.
const SEPARATORS = new Set([...' \t\r\n"\'&=;,<>{}()[]'].map((c) => c.charCodeAt(0)));
const SLASH = 0x2f;
const QUESTION = 0x3f;
// A JSON string literal (the scan looks only at those holding a \u escape).
const JSON_STRING = /"(?:[^"\\]|\\.)*"/g;

/** Percent-decoded; `plusIsSpace` as in a form-encoded query (a path keeps its "+"). Never throws. */
export function urlDecoded(text: string, plusIsSpace: boolean): string {
  const plus = plusIsSpace ? text.replace(/\+/g, ' ') : text;
  try {
    return decodeURIComponent(plus);
  } catch {
    // A stray % would make the whole text undecodable: decode the valid escapes run by run.
    return plus.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/** The two UTF-16 units at `i`, as one number. */
function pairAt(text: string, i: number): number {
  return (text.charCodeAt(i) << 16) | text.charCodeAt(i + 1);
}

function unescapedUnicode(text: string): string {
  return text.replace(/\\u([0-9A-Fa-f]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** JSON strings up to this length with a `\u` escape are decoded whole (a secret with a space in it too). */
const MAX_DECODED_STRING = 64 * 1024;

/** Bodies up to this size are first scanned once as text (cheaper than a search per form). */
const SMALL = 16 * 1024;

/**
 * Needles found in one pass over a text: looked up only where one could begin (a table of first
 * units), then by their first two units. Cheaper than a search per needle on short texts.
 */
class PairIndex {
  private readonly starts = new Uint8Array(0x10000);
  private readonly byPair = new Map<number, Array<{ text: string; of: number }>>();

  add(text: string, of: number): void {
    this.starts[text.charCodeAt(0)] = 1;
    const pair = pairAt(text, 0);
    this.byPair.set(pair, [...(this.byPair.get(pair) ?? []), { text, of }]);
  }

  /** The secret of the first needle found in `text`, or -1. */
  first(text: string): number {
    const starts = this.starts;
    for (let i = 0; i < text.length - 1; i++) {
      if (starts[text.charCodeAt(i)] === 0) continue;
      const candidates = this.byPair.get(pairAt(text, i));
      if (candidates === undefined) continue;
      for (const n of candidates) if (text.startsWith(n.text, i)) return n.of;
    }
    return -1;
  }
}

/** One set of secrets, compiled: its needles and markers. Get one with `SecretForms.of`. */
export class SecretForms {
  readonly markers: readonly string[];
  private readonly markerBytes: readonly Buffer[];
  private readonly needles: readonly Needle[];

  /** The needles as texts (for strings) and as their bytes read as latin1 (for small byte arrays). */
  private readonly texts = new PairIndex();
  private readonly latin1 = new PairIndex();
  /** No decoded text shorter than this can hold a secret (escapes only lengthen a text). */
  private readonly shortest: number;
  /** Nor can a text shorter than every form (most header names and values are). */
  private readonly shortestForm: number;
  /** How far around an escape a form holding it can reach. */
  private readonly longestForm: number;

  private constructor(readonly secrets: readonly string[]) {
    this.markers = secrets.map(redactedMarker);
    this.markerBytes = this.markers.map((m) => Buffer.from(m, 'utf8'));
    this.shortest = Math.min(...secrets.map((s) => s.length));
    const needles: Needle[] = [];
    secrets.forEach((secret, of) => {
      for (const { text, base64 } of formsOf(secret)) {
        const needs = text.includes('%') ? PERCENT : text.includes('\\') ? BACKSLASH : -1;
        const needle = { bytes: Buffer.from(text, 'utf8'), text, of, base64, needs };
        needles.push(needle);
        this.texts.add(text, of);
        this.latin1.add(needle.bytes.toString('latin1'), of);
      }
    });
    this.needles = needles;
    this.shortestForm = Math.min(...needles.map((n) => n.text.length));
    this.longestForm = Math.max(...needles.map((n) => n.text.length));
  }

  private static readonly cache = new Map<string, SecretForms>();
  private static readonly byList = new WeakMap<readonly string[], SecretForms>();

  /** The compiled set for these secrets (cached: the same set compiles once, the same list is not even joined). */
  static of(secrets: readonly string[]): SecretForms {
    let forms = SecretForms.byList.get(secrets);
    if (forms !== undefined) return forms;
    const key = secrets.join('\u0000');
    forms = SecretForms.cache.get(key);
    if (forms === undefined) {
      forms = new SecretForms(secrets);
      if (SecretForms.cache.size >= 32) SecretForms.cache.clear();
      SecretForms.cache.set(key, forms);
    }
    SecretForms.byList.set(secrets, forms);
    return forms;
  }

  /** The index of a secret `text` holds in any fixed form, or -1. */
  private formIn(text: string): number {
    return this.texts.first(text);
  }

  /**
   * The index of a secret a short text (a header value, a URL piece) holds, in any form, also once
   * decoded (percent-encoded, double, `\u` escapes, base64 credentials as in `Basic`), or -1.
   */
  find(text: string): number {
    if (this.secrets.length === 0 || text.length < this.shortestForm) return -1;
    let found = this.formIn(text);
    if (found >= 0) return found;
    const views: string[] = [];
    if (text.includes('%') || text.includes('+')) {
      // "+" is a space in a form-encoded query and itself elsewhere; a secret may hold one either way,
      // at either level of a twice-encoded text (a URL echoed, encoded, in a header).
      for (const once of new Set([urlDecoded(text, true), urlDecoded(text, false)])) {
        views.push(once);
        if (once.includes('%')) views.push(urlDecoded(once, true), urlDecoded(once, false));
      }
    }
    if (text.includes('\\u')) views.push(unescapedUnicode(text));
    for (const v of views) if ((found = this.formIn(v)) >= 0) return found;
    return -1;
  }

  /**
   * Bytes with every form of every secret replaced by its marker, plus the secrets found. Returns the
   * same bytes when nothing was found. `slash`: whether "/" may be part of a base64 run or of a
   * percent-encoded token (not in a path or query, where it separates).
   */
  redact(bytes: Uint8Array, slash = true): { bytes: Uint8Array; found: number[] } {
    if (this.secrets.length === 0 || bytes.byteLength < MIN_REDACTED_SECRET) return { bytes, found: [] };
    const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let text: string | null = null;
    let formThere = true;
    if (data.length <= SMALL) {
      // A small body (a callback, its answer): one pass over it says whether any form is there at all.
      text = data.toString('latin1');
      formThere = this.latin1.first(text) >= 0;
      if (!formThere && !text.includes('%') && !text.includes('\\u')) return { bytes, found: [] };
    }
    const hasPercent = data.includes(PERCENT);
    const hasBackslash = data.includes(BACKSLASH);
    const hits: Hit[] = [];
    if (formThere) this.formHits(data, hits, slash, hasPercent, hasBackslash);
    const hasUnicodeEscape = hasBackslash && data.includes('\\u');
    if (hasUnicodeEscape || hasPercent) text ??= data.toString('latin1');
    if (hasUnicodeEscape) this.escapedStrings(text!, hits);
    if (hasPercent || hasUnicodeEscape) this.escapedTokens(text!, hits, slash);
    return hits.length === 0 ? { bytes, found: [] } : this.replaced(data, hits);
  }

  /** Every fixed form, found by a search per form (a native search: fast on large bodies). */
  private formHits(data: Buffer, hits: Hit[], slash: boolean, hasPercent: boolean, hasBackslash: boolean): void {
    for (const n of this.needles) {
      if ((n.needs === PERCENT && !hasPercent) || (n.needs === BACKSLASH && !hasBackslash)) continue;
      let at = data.indexOf(n.bytes);
      while (at >= 0) {
        let from = at;
        let to = at + n.bytes.length;
        if (n.base64) {
          while (from > 0 && isBase64Char(data[from - 1]!, slash)) from--;
          while (to < data.length && isBase64Char(data[to]!, slash)) to++;
          while (to < data.length && data[to] === 0x3d) to++;
        }
        hits.push({ from, to, of: n.of });
        at = data.indexOf(n.bytes, Math.max(to, at + 1));
      }
    }
  }

  /** JSON strings with `\u` escapes: a string that holds a secret once unescaped becomes the marker (its quotes kept). */
  private escapedStrings(text: string, hits: Hit[]): void {
    for (const m of text.matchAll(JSON_STRING)) {
      // A longer string is searched by the escape windows below (as tokens are).
      if (!m[0].includes('\\u') || m[0].length < this.shortest || m[0].length > MAX_DECODED_STRING) continue;
      let value: unknown;
      try {
        value = JSON.parse(Buffer.from(m[0], 'latin1').toString('utf8'));
      } catch {
        value = unescapedUnicode(m[0]);
      }
      const of = typeof value === 'string' ? this.find(value) : -1;
      if (of >= 0) hits.push({ from: m.index + 1, to: m.index + m[0].length - 1, of });
    }
  }

  /**
   * Escapes outside JSON strings (a secret partly percent- or `\u`-encoded): the text around each run
   * of escapes, as far as a form of a secret could reach (the longest form) and no further than a
   * separator, is decoded and searched; a window that holds a secret becomes the marker. Linear: each
   * run is decoded once, with at most the longest form on each side.
   */
  private escapedTokens(text: string, hits: Hit[], slash: boolean): void {
    const reach = this.longestForm;
    const separates = (c: number): boolean => SEPARATORS.has(c) || (!slash && (c === SLASH || c === QUESTION));
    const search = (first: number, last: number): void => {
      let from = first;
      let to = last;
      for (let k = 0; k < reach && from > 0 && !separates(text.charCodeAt(from - 1)); k++) from--;
      for (let k = 0; k < reach && to < text.length && !separates(text.charCodeAt(to)); k++) to++;
      const of = to - from < this.shortest ? -1 : this.find(text.slice(from, to));
      if (of >= 0) hits.push({ from, to, of });
    };
    const escapes = new RegExp(ESCAPE.source, 'g');
    let run: { from: number; to: number } | null = null;
    let m: RegExpExecArray | null;
    while ((m = escapes.exec(text)) !== null) {
      const end = m.index + m[0].length;
      // Escapes closer than a form's length belong to one window.
      if (run !== null && m.index - run.to <= reach) run.to = end;
      else {
        if (run !== null) search(run.from, run.to);
        run = { from: m.index, to: end };
      }
    }
    if (run !== null) search(run.from, run.to);
  }

  private replaced(data: Buffer, hits: Hit[]): { bytes: Uint8Array; found: number[] } {
    hits.sort((a, b) => a.from - b.from || b.to - a.to);
    const parts: Buffer[] = [];
    const found = new Set<number>();
    let from = 0;
    let i = 0;
    while (i < hits.length) {
      const first = hits[i]!;
      let to = first.to;
      found.add(first.of);
      // Overlapping hits (two forms, two secrets) become one marker.
      while (++i < hits.length && hits[i]!.from < to) {
        to = Math.max(to, hits[i]!.to);
        found.add(hits[i]!.of);
      }
      parts.push(data.subarray(from, first.from), this.markerBytes[first.of]!);
      from = to;
    }
    parts.push(data.subarray(from));
    return { bytes: new Uint8Array(Buffer.concat(parts)), found: [...found].sort((a, b) => a - b) };
  }

  /** A text with every form of every secret replaced by its marker (the same string when none is there). */
  redactText(text: string, slash = true): string {
    if (this.secrets.length === 0 || text.length < MIN_REDACTED_SECRET) return text;
    // The common case, a text with no form and no escape, without a conversion to bytes.
    if (!text.includes('%') && !text.includes('\\u') && this.formIn(text) < 0) return text;
    const out = this.redact(Buffer.from(text, 'utf8'), slash);
    return out.found.length === 0 ? text : Buffer.from(out.bytes).toString('utf8');
  }
}
