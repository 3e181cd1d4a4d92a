// A parsed JSON value as printable lines, each carrying the JSON path the desk's findings use
// ('$', '$.amount', '$.errors[0].code', '$["odd key"]'), so a finding can be shown at its field.
import type { Finding } from '../../src-main/shared/model';

export type TokenKind = 'key' | 'string' | 'number' | 'boolean' | 'null' | 'punct';

export interface JsonToken {
  kind: TokenKind;
  text: string;
}

export interface JsonLine {
  depth: number;
  path: string;
  tokens: JsonToken[];
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function childPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  return IDENTIFIER.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

const LAST_SEGMENT = /(\.[A-Za-z_$][A-Za-z0-9_$]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])$/;

/** '$.a.b' -> '$.a'; '$' stays '$'. */
export function parentPath(path: string): string {
  const m = LAST_SEGMENT.exec(path);
  if (!m || m.index === 0) return '$';
  return path.slice(0, m.index);
}

function scalar(value: unknown): JsonToken {
  if (value === null) return { kind: 'null', text: 'null' };
  if (typeof value === 'string') return { kind: 'string', text: JSON.stringify(value) };
  if (typeof value === 'number') return { kind: 'number', text: JSON.stringify(value) };
  if (typeof value === 'boolean') return { kind: 'boolean', text: String(value) };
  return { kind: 'punct', text: String(value) };
}

/** Lines of the value pretty-printed with two-space indentation, like JSON.stringify(v, null, 2). */
export function jsonLines(value: unknown): JsonLine[] {
  const lines: JsonLine[] = [];
  const walk = (v: unknown, path: string, depth: number, prefix: JsonToken[], comma: boolean): void => {
    const tail: JsonToken[] = comma ? [{ kind: 'punct', text: ',' }] : [];
    if (Array.isArray(v) || (typeof v === 'object' && v !== null)) {
      const isArray = Array.isArray(v);
      const entries: Array<[string | number, unknown]> = isArray ? v.map((x, i) => [i, x]) : Object.entries(v as Record<string, unknown>);
      const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
      if (entries.length === 0) {
        lines.push({ depth, path, tokens: [...prefix, { kind: 'punct', text: open + close }, ...tail] });
        return;
      }
      lines.push({ depth, path, tokens: [...prefix, { kind: 'punct', text: open }] });
      entries.forEach(([k, child], i) => {
        const keyTokens: JsonToken[] =
          typeof k === 'string'
            ? [
                { kind: 'key', text: JSON.stringify(k) },
                { kind: 'punct', text: ': ' },
              ]
            : [];
        walk(child, childPath(path, k), depth + 1, keyTokens, i < entries.length - 1);
      });
      lines.push({ depth, path: `${path}#end`, tokens: [{ kind: 'punct', text: close }, ...tail] });
      return;
    }
    lines.push({ depth, path, tokens: [...prefix, scalar(v), ...tail] });
  };
  walk(value, '$', 0, [], false);
  return lines;
}

/**
 * Which line each finding belongs to: its own path when the body has that field, else the nearest
 * enclosing object (a missing required field shows at the object that lacks it).
 */
export function placeFindings(lines: readonly JsonLine[], findings: readonly Finding[]): Map<string, Finding[]> {
  const present = new Set(lines.map((l) => l.path));
  const placed = new Map<string, Finding[]>();
  for (const f of findings) {
    let at = f.path;
    while (!present.has(at) && at !== '$') at = parentPath(at);
    const list = placed.get(at) ?? [];
    list.push(f);
    placed.set(at, list);
  }
  return placed;
}
