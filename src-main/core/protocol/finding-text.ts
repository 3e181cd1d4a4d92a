// Small helpers that turn paths and values into the words of a finding. Kept apart so that every
// checker writes paths and quotes values the same way, since support staff compare findings
// across messages.
import type { Finding, FindingLevel } from '../../shared/model';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** '$' + '.amount', or '$["odd key"]' when the key is not a plain identifier (so the path stays unambiguous). */
export function pathOf(base: string, key: string): string {
  return IDENTIFIER.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

export function indexPath(base: string, index: number): string {
  return `${base}[${index}]`;
}

export function finding(level: FindingLevel, path: string, message: string): Finding {
  return { level, path, message };
}

const MAX_SHOWN = 40;

/** A short, readable rendering of a JSON value for "got ..." phrases. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') {
    const shown = value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value;
    return `${JSON.stringify(shown)} (a string)`;
  }
  if (typeof value === 'number') {
    // JSON.parse turns numbers too large for a double (1e400) into Infinity.
    if (!Number.isFinite(value)) return `${value} (a number too large to represent)`;
    return String(value);
  }
  if (typeof value === 'boolean') return `${value} (a boolean)`;
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : `an array of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  return typeof value;
}

/** What kind of JSON value this is, in words ("an array", "a string"). */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
