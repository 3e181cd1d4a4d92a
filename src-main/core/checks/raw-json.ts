// JSON written by hand, member by member, so that a case can send bytes no serializer would produce
// (10.50, \u escapes, another key order, indentation) and still be exactly what it means.

/** A member whose value is already JSON text, spelled as it will be sent. */
export type RawMember = [key: string, rawValue: string];

export function membersOf(obj: Record<string, unknown>): RawMember[] {
  return Object.entries(obj).map(([k, v]) => [k, JSON.stringify(v)]);
}

/** Replaces (or appends) one member's raw spelling. */
export function withRaw(members: RawMember[], key: string, raw: string): RawMember[] {
  return members.some(([k]) => k === key) ? members.map(([k, v]) => [k, k === key ? raw : v]) : [...members, [key, raw]];
}

export function writeObject(members: RawMember[], style: { indent?: number; trailingNewline?: boolean } = {}): Uint8Array {
  const pad = ' '.repeat(style.indent ?? 0);
  const text =
    style.indent === undefined
      ? `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`
      : `{\n${members.map(([k, v]) => `${pad}${JSON.stringify(k)}: ${v}`).join(',\n')}\n}`;
  return new TextEncoder().encode(style.trailingNewline ? `${text}\n` : text);
}

/** A JSON string with every character written as a \uXXXX escape: same value, other bytes. */
export function escapedString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) out += `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return `${out}"`;
}
