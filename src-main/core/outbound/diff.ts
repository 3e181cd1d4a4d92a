// A structural diff of two exchanges (a replay against its source, usually): body fields by JSON
// path, headers by name, the signature header and verdict, the response status and response body
// fields. JSON bodies are compared by value (so a re-ordered body shows no field change, though its
// bytes differ: a 'body' entry at '$bytes' says so); other bodies are compared as a whole.
import type { DiffEntry, ExchangeDetail, HeaderList } from '../../shared/model';
import { indexPath, isPlainObject, pathOf } from '../protocol';
import { headerValue, SIGNATURE_HEADER } from './headers';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** Headers every send of the desk sets for itself; their change says nothing about the message. */
const NOISE_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'date', 'keep-alive']);

type Parsed = { json: true; value: unknown } | { json: false; text: string };

function parse(base64: string): Parsed {
  const bytes = Buffer.from(base64, 'base64');
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return { json: false, text: `base64:${base64}` };
  }
  try {
    return { json: true, value: JSON.parse(text) };
  } catch {
    return { json: false, text };
  }
}

/** Leaves of a JSON value by path (written as findings write them); empty objects and arrays are leaves of their own. */
function flatten(value: unknown, path: string, out: Map<string, unknown>): Map<string, unknown> {
  if (Array.isArray(value) && value.length > 0) value.forEach((v, i) => flatten(v, indexPath(path, i), out));
  else if (isPlainObject(value) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) flatten(v, pathOf(path, k), out);
  } else out.set(path, value);
  return out;
}

/** Entries for one pair of bodies; `undefined` stands for a field that is absent on one side. */
export function diffBodies(area: string, before: string | null, after: string | null): DiffEntry[] {
  if (before === after) return [];
  if (before === null || after === null)
    return [{ area, path: '$', before: before === null ? null : parseShown(before), after: after === null ? null : parseShown(after) }];
  const a = parse(before);
  const b = parse(after);
  if (!a.json || !b.json) return [{ area, path: '$', before: shown(a), after: shown(b) }];
  const left = flatten(a.value, '$', new Map());
  const right = flatten(b.value, '$', new Map());
  const entries: DiffEntry[] = [];
  for (const path of new Set([...left.keys(), ...right.keys()])) {
    const l = left.get(path);
    const r = right.get(path);
    if (JSON.stringify(l) !== JSON.stringify(r) || left.has(path) !== right.has(path)) {
      entries.push({ area, path, before: left.has(path) ? l : undefined, after: right.has(path) ? r : undefined });
    }
  }
  // Same values, other bytes (key order, spacing, number spelling): matters for signatures.
  if (entries.length === 0) entries.push({ area, path: '$bytes', before: 'same values', after: 'same values, different bytes' });
  return entries;
}

function shown(p: Parsed): unknown {
  return p.json ? p.value : p.text;
}

function parseShown(base64: string): unknown {
  return shown(parse(base64));
}

function headerMap(headers: HeaderList): Map<string, string> {
  const map = new Map<string, string>();
  for (const [name, value] of headers) {
    const key = name.toLowerCase();
    map.set(key, map.has(key) ? `${map.get(key)}, ${value}` : value);
  }
  return map;
}

function diffHeaders(before: HeaderList, after: HeaderList): DiffEntry[] {
  const a = headerMap(before);
  const b = headerMap(after);
  const entries: DiffEntry[] = [];
  for (const name of new Set([...a.keys(), ...b.keys()])) {
    if (name === SIGNATURE_HEADER || NOISE_HEADERS.has(name)) continue;
    if (a.get(name) !== b.get(name)) entries.push({ area: 'header', path: name, before: a.get(name) ?? null, after: b.get(name) ?? null });
  }
  return entries;
}

export function diffExchangeDetails(before: ExchangeDetail, after: ExchangeDetail): DiffEntry[] {
  const entries: DiffEntry[] = [];
  if (before.request.method !== after.request.method)
    entries.push({ area: 'request', path: 'method', before: before.request.method, after: after.request.method });
  if (before.request.path !== after.request.path || before.request.query !== after.request.query) {
    const full = (d: ExchangeDetail) => `${d.request.path}${d.request.query ? `?${d.request.query}` : ''}`;
    entries.push({ area: 'request', path: 'path', before: full(before), after: full(after) });
  }
  entries.push(...diffBodies('body', before.request.bodyBase64, after.request.bodyBase64));
  entries.push(...diffHeaders(before.request.headers, after.request.headers));

  const sigBefore = headerValue(before.request.headers, SIGNATURE_HEADER);
  const sigAfter = headerValue(after.request.headers, SIGNATURE_HEADER);
  if (sigBefore !== sigAfter) entries.push({ area: 'signature', path: SIGNATURE_HEADER, before: sigBefore, after: sigAfter });
  if (before.signature.verdict !== after.signature.verdict) {
    entries.push({ area: 'signature', path: 'verdict', before: before.signature.verdict, after: after.signature.verdict });
  }

  const statusBefore = before.response?.status ?? null;
  const statusAfter = after.response?.status ?? null;
  if (statusBefore !== statusAfter) entries.push({ area: 'status', path: 'status', before: statusBefore, after: statusAfter });
  if (before.error !== after.error) entries.push({ area: 'status', path: 'error', before: before.error, after: after.error });
  entries.push(...diffBodies('response-body', before.response?.bodyBase64 ?? null, after.response?.bodyBase64 ?? null));
  return entries;
}
