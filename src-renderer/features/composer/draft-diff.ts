// What the draft changes against the request it was loaded from, before it is sent: the request
// line, headers by name, and the body field by field when both bodies are JSON objects (else the body
// as a whole). The same shape as the desk's diff after a send, so one table shows both.
import type { DiffEntry, Draft } from '../../../src-main/shared/model';

function headerMap(headers: Draft['headers']): Map<string, string> {
  const map = new Map<string, string>();
  for (const [n, v] of headers) {
    const key = n.toLowerCase();
    map.set(key, map.has(key) ? `${map.get(key)}, ${v}` : v);
  }
  return map;
}

function flatten(value: unknown, path: string, out: Map<string, unknown>): void {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    if (entries.length === 0) out.set(path, value);
    for (const [k, v] of entries) flatten(v, Array.isArray(value) ? `${path}[${k}]` : `${path}.${k}`, out);
    return;
  }
  out.set(path, value);
}

function parsed(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch {
    return undefined;
  }
}

/** `beforeText` / `afterText`: the bodies as text (null where the bytes are not UTF-8). */
export function draftDiff(before: Draft, after: Draft, beforeText: string | null, afterText: string | null): DiffEntry[] {
  const diff: DiffEntry[] = [];
  if (before.method !== after.method) diff.push({ area: 'request', path: 'method', before: before.method, after: after.method });
  if (before.path !== after.path) diff.push({ area: 'request', path: 'path', before: before.path, after: after.path });
  if (before.bodyBase64 !== after.bodyBase64) {
    const a = parsed(beforeText);
    const b = parsed(afterText);
    if (a !== undefined && b !== undefined && typeof a === 'object' && typeof b === 'object') {
      const fa = new Map<string, unknown>();
      const fb = new Map<string, unknown>();
      flatten(a, '$', fa);
      flatten(b, '$', fb);
      for (const path of new Set([...fa.keys(), ...fb.keys()])) {
        if (JSON.stringify(fa.get(path)) !== JSON.stringify(fb.get(path))) diff.push({ area: 'body', path, before: fa.get(path), after: fb.get(path) });
      }
      if (!diff.some((d) => d.area === 'body'))
        diff.push({ area: 'body', path: '(bytes)', before: 'as loaded', after: 'same fields, other bytes (spacing, order or escapes)' });
    } else {
      diff.push({ area: 'body', path: '$', before: beforeText ?? '(not UTF-8)', after: afterText ?? '(not UTF-8)' });
    }
  }
  const ha = headerMap(before.headers);
  const hb = headerMap(after.headers);
  for (const name of new Set([...ha.keys(), ...hb.keys()])) {
    if (ha.get(name) !== hb.get(name)) diff.push({ area: 'header', path: name, before: ha.get(name), after: hb.get(name) });
  }
  return diff;
}
