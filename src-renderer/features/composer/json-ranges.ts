// Where each JSON path of a body sits in its text, so the desk's findings ('$.amount',
// '$.errors[0].code', '$["odd key"]') can be marked at their fields in the editor. A small tolerant
// scanner: it records every value it reads and stops at the first syntax error, reporting where, so
// a half-typed body still gets its markers up to the mistake.
import { childPath, parentPath } from '../../components/json-lines';
import type { Finding } from '../../../src-main/shared/model';

export interface Span {
  /** Start of the member (its key) or of the value for array items and the root. */
  from: number;
  /** Start of the value itself. */
  valueFrom: number;
  to: number;
}

export interface JsonRanges {
  /** Value spans by path; a member's span runs from its key to the end of its value. */
  spans: Map<string, Span>;
  /** The first syntax error, or null when the text is one complete JSON value. */
  error: { pos: number; message: string } | null;
}

const MAX_DEPTH = 256;

class Stop extends Error {
  constructor(
    readonly pos: number,
    message: string,
  ) {
    super(message);
  }
}

export function jsonRanges(text: string): JsonRanges {
  const spans = new Map<string, Span>();
  let i = 0;
  const skip = (): void => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      // JSON white space, plus a leading byte order mark (the desk reports it separately).
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || (c === 0xfeff && i === 0)) i++;
      else break;
    }
  };
  const string = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      else if (text.charCodeAt(i) < 0x20) throw new Stop(i, 'control character in a string');
      i++;
    }
    if (i >= text.length) throw new Stop(start, 'unterminated string');
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      throw new Stop(start, 'bad escape in a string');
    }
  };
  const value = (path: string, depth: number, spanFrom: number | null): void => {
    if (depth > MAX_DEPTH) throw new Stop(i, 'nested too deeply');
    skip();
    const from = i;
    const c = text[i];
    if (c === '{') {
      i++;
      skip();
      if (text[i] === '}') i++;
      else {
        for (;;) {
          skip();
          const keyFrom = i;
          if (text[i] !== '"') throw new Stop(i, 'expected a quoted key');
          const key = string();
          skip();
          if (text[i] !== ':') throw new Stop(i, 'expected ":" after the key');
          i++;
          value(childPath(path, key), depth + 1, keyFrom);
          skip();
          if (text[i] === ',') i++;
          else if (text[i] === '}') {
            i++;
            break;
          } else throw new Stop(i, 'expected "," or "}"');
        }
      }
    } else if (c === '[') {
      i++;
      skip();
      if (text[i] === ']') i++;
      else {
        for (let n = 0; ; n++) {
          value(childPath(path, n), depth + 1, null);
          skip();
          if (text[i] === ',') i++;
          else if (text[i] === ']') {
            i++;
            break;
          } else throw new Stop(i, 'expected "," or "]"');
        }
      }
    } else if (c === '"') {
      string();
    } else {
      const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400));
      if (!m) throw new Stop(i, i >= text.length ? 'unexpected end of the body' : 'expected a value');
      i += m[0].length;
    }
    spans.set(path, { from: spanFrom ?? from, valueFrom: from, to: i });
  };
  try {
    value('$', 0, null);
    skip();
    if (i < text.length) throw new Stop(i, 'unexpected text after the JSON value');
    return { spans, error: null };
  } catch (err) {
    if (err instanceof Stop) return { spans, error: { pos: err.pos, message: err.message } };
    throw err;
  }
}

export interface PlacedFinding {
  finding: Finding;
  from: number;
  to: number;
}

/**
 * The span each finding marks: its own field when present; for a field that is missing, the opening
 * brace of the object that lacks it; for the whole body, the syntax error's position when there is
 * one, else the first character.
 */
export function placeFindingsInText(text: string, findings: readonly Finding[], ranges: JsonRanges = jsonRanges(text)): PlacedFinding[] {
  const clamp = (n: number): number => Math.max(0, Math.min(text.length, n));
  const firstChar = (at: number): { from: number; to: number } => ({ from: clamp(at), to: clamp(at + 1) });
  return findings.map((finding) => {
    if (finding.path === '$') {
      const root = ranges.spans.get('$');
      return { finding, ...firstChar(ranges.error ? ranges.error.pos : (root?.valueFrom ?? 0)) };
    }
    let path = finding.path;
    while (!ranges.spans.has(path) && path !== '$') path = parentPath(path);
    const span = ranges.spans.get(path);
    if (!span) return { finding, ...firstChar(ranges.error?.pos ?? 0) };
    // A missing field shows at the opening brace of the object that lacks it.
    if (path !== finding.path) return { finding, ...firstChar(span.valueFrom) };
    return { finding, from: clamp(span.from), to: clamp(span.to) };
  });
}
