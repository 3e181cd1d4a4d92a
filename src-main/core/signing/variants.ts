// The ways a sender commonly signs something other than the bytes it sends. Each variant turns the
// received body into what the sender may have signed instead; diagnose() tries them in order.
// Small byte-level changes come first: when several variants reproduce a signature, the smallest change is
// the likeliest explanation (a pretty-printed body minus its newline is also its 2-space re-serialization).

import { hasEmptyObject, JsonNumber, JsonObject, readJsonTree, someNumber, type JsonTree } from './json-tree';
import { jsNumber, phpNumber, pythonAllFloats, pythonNumber } from './number-styles';

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const encoder = new TextEncoder();
// A fatal decoder also drops a leading BOM (ignoreBOM is false), as a JSON parser that accepts one would.
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

export type Parsed = { ok: true; value: unknown } | { ok: false };

/** What a variant works from: the received bytes, and their JSON value, parsed at most once per diagnosis. */
export interface VariantInput {
  bytes: Uint8Array;
  parsed(): Parsed;
  /** The body as a tree that keeps number spellings and member order; null when it is not JSON. */
  tree(): JsonTree | null;
}

export interface BodyVariant {
  variant: string;
  label: string;
  /** Parses and re-serializes the body: skipped for very large bodies, where it would stall the proxy. */
  reserializes: boolean;
  /** Returns the alternative bytes, or null when the variant does not apply to this body. */
  make(input: VariantInput): Uint8Array | null;
}

export function variantInput(bytes: Uint8Array): VariantInput {
  let memo: Parsed | null = null;
  let text = '';
  let treeMemo: JsonTree | null | undefined;
  const parsed = (): Parsed => {
    if (memo === null) {
      try {
        text = strictDecoder.decode(bytes);
        memo = { ok: true, value: JSON.parse(text) };
      } catch {
        memo = { ok: false };
      }
    }
    return memo;
  };
  return {
    bytes,
    parsed,
    tree() {
      if (treeMemo === undefined) treeMemo = parsed().ok ? readJsonTree(text) : null;
      return treeMemo;
    },
  };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function reserialized(input: VariantInput, indent: number | undefined, suffix = '', transform: (v: unknown) => unknown = (v) => v): Uint8Array | null {
  const p = input.parsed();
  if (!p.ok) return null;
  const out = encoder.encode(JSON.stringify(transform(p.value), null, indent) + suffix);
  return sameBytes(out, input.bytes) ? null : out;
}

function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value !== null && typeof value === 'object') {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) sorted[key] = sortKeysDeep((value as Record<string, unknown>)[key]);
    return sorted;
  }
  return value;
}

/** How a language's JSON encoder writes a value: separators, which characters it escapes, numbers, key order. */
interface EncoderStyle {
  itemSeparator: string;
  keySeparator: string;
  /** The escape of one UTF-16 code unit beyond JSON's own, or null to keep it. */
  escape: (unit: number) => string | null;
  /** How the language writes back a number it decoded. */
  number: (n: JsonNumber) => string;
  sortKeys?: boolean;
  /** PHP's associative decoding cannot tell {} from [], and encodes both as []. */
  emptyObjectAsArray?: boolean;
}

const unicodeEscape = (unit: number): string => `\\u${unit.toString(16).padStart(4, '0')}`;

function encodeString(s: string, style: EncoderStyle): string {
  const standard = JSON.stringify(s);
  let out = '';
  for (let i = 0; i < standard.length; i++) {
    const unit = standard.charCodeAt(i);
    out += style.escape(unit) ?? standard[i];
  }
  return out;
}

function encode(value: JsonTree, style: EncoderStyle): string {
  if (typeof value === 'string') return encodeString(value, style);
  if (value instanceof JsonNumber) return style.number(value);
  if (Array.isArray(value)) return `[${value.map((v) => encode(v, style)).join(style.itemSeparator)}]`;
  if (value instanceof JsonObject) {
    if (value.members.length === 0 && style.emptyObjectAsArray) return '[]';
    const members = style.sortKeys ? [...value.members].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : value.members;
    return `{${members.map(([k, v]) => `${encodeString(k, style)}${style.keySeparator}${encode(v, style)}`).join(style.itemSeparator)}}`;
  }
  return JSON.stringify(value);
}

function encodedBy(input: VariantInput, style: EncoderStyle, applies: (tree: JsonTree) => boolean = () => true): Uint8Array | null {
  const tree = input.tree();
  if (tree === null || !applies(tree)) return null;
  const out = encoder.encode(encode(tree, style));
  return sameBytes(out, input.bytes) ? null : out;
}

const nonAscii = (unit: number): string | null => (unit > 0x7e ? unicodeEscape(unit) : null);
const SLASH = 0x2f;
/** Go's encoding/json escapes these so that JSON is safe inside HTML, and U+2028/U+2029 for JavaScript. */
const GO_ESCAPED = new Set([0x3c, 0x3e, 0x26, 0x2028, 0x2029]);
/** Gson (Java) escapes the same HTML characters, and = and ' too. */
const GSON_ESCAPED = new Set([0x3c, 0x3e, 0x26, 0x3d, 0x27]);

const PYTHON_DEFAULT = { itemSeparator: ', ', keySeparator: ': ', escape: nonAscii, number: pythonNumber };
const PYTHON_COMPACT = { ...PYTHON_DEFAULT, itemSeparator: ',', keySeparator: ':' };
const PHP_DEFAULT = { itemSeparator: ',', keySeparator: ':', escape: (u: number) => (u === SLASH ? '\\/' : nonAscii(u)), number: phpNumber };
const hasInteger = (tree: JsonTree): boolean => someNumber(tree, (n) => !n.isFloat);

/**
 * The re-serializations of the encoders operators and platforms are written with, with their default
 * settings, each named by its exact call. Where two encoders write a body the same way, the more common
 * default comes first (PHP's json_encode before Python's json.dumps with compact separators).
 */
const LANGUAGE_VARIANTS: readonly BodyVariant[] = [
  {
    variant: 'python-json-dumps',
    label: 'the body as Python\'s json.dumps writes it by default (", " and ": " separators, non-ASCII as \\uXXXX escapes)',
    reserializes: true,
    make: (i) => encodedBy(i, PYTHON_DEFAULT),
  },
  {
    variant: 'python-json-dumps-floats',
    label: 'the body as Python\'s json.dumps writes it when the numbers are floats (100 as 100.0, 1e16 as 1e+16; ", " and ": " separators)',
    reserializes: true,
    make: (i) => encodedBy(i, { ...PYTHON_DEFAULT, number: pythonAllFloats }, hasInteger),
  },
  {
    variant: 'python-json-dumps-unicode',
    label: 'the body as Python\'s json.dumps(..., ensure_ascii=False) writes it (", " and ": " separators)',
    reserializes: true,
    make: (i) => encodedBy(i, { ...PYTHON_DEFAULT, escape: () => null }),
  },
  {
    variant: 'php-json-encode',
    label: "the body as PHP's json_encode writes it by default (slashes as \\/, non-ASCII as \\uXXXX escapes)",
    reserializes: true,
    make: (i) => encodedBy(i, PHP_DEFAULT),
  },
  {
    variant: 'php-json-encode-assoc',
    label: "the body as PHP's json_encode(json_decode($body, true)) writes it (an empty object {} as [], slashes as \\/, non-ASCII as \\uXXXX)",
    reserializes: true,
    make: (i) => encodedBy(i, { ...PHP_DEFAULT, emptyObjectAsArray: true }, hasEmptyObject),
  },
  {
    variant: 'php-json-encode-floats',
    label: "the body as PHP's json_encode writes it when the numbers are floats (100 as 100.0, slashes as \\/, non-ASCII as \\uXXXX)",
    reserializes: true,
    make: (i) => encodedBy(i, { ...PHP_DEFAULT, number: (n) => phpNumber(n.isFloat ? n : new JsonNumber(`${n.lexeme}.0`)) }, hasInteger),
  },
  {
    variant: 'python-json-dumps-compact',
    label: 'the body as Python\'s json.dumps(..., separators=(",", ":")) writes it (non-ASCII as \\uXXXX escapes)',
    reserializes: true,
    make: (i) => encodedBy(i, PYTHON_COMPACT),
  },
  {
    variant: 'python-json-dumps-compact-floats',
    label: 'the body as Python\'s json.dumps(..., separators=(",", ":")) writes it when the numbers are floats (100 as 100.0, 1e16 as 1e+16)',
    reserializes: true,
    make: (i) => encodedBy(i, { ...PYTHON_COMPACT, number: pythonAllFloats }, hasInteger),
  },
  {
    variant: 'go-encoding-json',
    label: "the body as Go's encoding/json writes it (<, > and & as \\u003c, \\u003e, \\u0026)",
    reserializes: true,
    make: (i) => encodedBy(i, { itemSeparator: ',', keySeparator: ':', escape: (u) => (GO_ESCAPED.has(u) ? unicodeEscape(u) : null), number: jsNumber }),
  },
  {
    variant: 'go-encoding-json-map',
    label: "the body as Go's encoding/json writes it from a map (keys sorted; <, > and & as \\u003c, \\u003e, \\u0026)",
    reserializes: true,
    make: (i) =>
      encodedBy(i, { itemSeparator: ',', keySeparator: ':', escape: (u) => (GO_ESCAPED.has(u) ? unicodeEscape(u) : null), number: jsNumber, sortKeys: true }),
  },
  {
    variant: 'java-gson',
    label: "the body as Java's Gson writes it by default (<, >, &, = and ' as \\u003c, \\u003e, \\u0026, \\u003d, \\u0027)",
    reserializes: true,
    make: (i) => encodedBy(i, { itemSeparator: ',', keySeparator: ':', escape: (u) => (GSON_ESCAPED.has(u) ? unicodeEscape(u) : null), number: jsNumber }),
  },
];

export const BODY_VARIANTS: readonly BodyVariant[] = [
  {
    variant: 'trailing-newline-added',
    label: 'the body with a trailing newline added',
    reserializes: false,
    make: ({ bytes }) => {
      const out = new Uint8Array(bytes.length + 1);
      out.set(bytes);
      out[bytes.length] = 0x0a;
      return out;
    },
  },
  {
    variant: 'trailing-newline-removed',
    label: 'the body with its trailing newline removed',
    reserializes: false,
    make: ({ bytes }) => {
      let end = bytes.length;
      while (end > 0 && (bytes[end - 1] === 0x0a || bytes[end - 1] === 0x0d)) end--;
      return end === bytes.length ? null : bytes.slice(0, end);
    },
  },
  {
    variant: 'bom-stripped',
    label: 'the body without its UTF-8 byte order mark',
    reserializes: false,
    make: ({ bytes }) => (bytes.length >= 3 && UTF8_BOM.every((v, i) => bytes[i] === v) ? bytes.slice(3) : null),
  },
  {
    variant: 'empty-object',
    label: 'the body "{}" (the sender signed an empty object for an empty body)',
    reserializes: false,
    make: ({ bytes }) => (bytes.length === 0 ? encoder.encode('{}') : null),
  },
  {
    variant: 'compact-json',
    label: 'the body re-serialized as compact JSON (JSON.stringify(JSON.parse(body)))',
    reserializes: true,
    make: (i) => reserialized(i, undefined),
  },
  { variant: 'pretty-2', label: 'the body pretty-printed with 2 spaces', reserializes: true, make: (i) => reserialized(i, 2) },
  { variant: 'pretty-4', label: 'the body pretty-printed with 4 spaces', reserializes: true, make: (i) => reserialized(i, 4) },
  // Many serializers write a file-style newline after pretty-printed JSON.
  {
    variant: 'pretty-2-newline',
    label: 'the body pretty-printed with 2 spaces and a final newline',
    reserializes: true,
    make: (i) => reserialized(i, 2, '\n'),
  },
  {
    variant: 'pretty-4-newline',
    label: 'the body pretty-printed with 4 spaces and a final newline',
    reserializes: true,
    make: (i) => reserialized(i, 4, '\n'),
  },
  {
    variant: 'sorted-keys',
    label: 'the body re-serialized with its keys sorted',
    reserializes: true,
    make: (i) => reserialized(i, undefined, '', sortKeysDeep),
  },
  ...LANGUAGE_VARIANTS,
];
