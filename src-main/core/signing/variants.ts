// The ways a sender commonly signs something other than the bytes it sends. Each variant turns the
// received body into what the sender may have signed instead; diagnose() tries them in order.
// Small byte-level changes come first: when several variants reproduce a signature, the smallest change is
// the likeliest explanation (a pretty-printed body minus its newline is also its 2-space re-serialization).

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const encoder = new TextEncoder();
// A fatal decoder also drops a leading BOM (ignoreBOM is false), as a JSON parser that accepts one would.
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

export type Parsed = { ok: true; value: unknown } | { ok: false };

/** What a variant works from: the received bytes, and their JSON value, parsed at most once per diagnosis. */
export interface VariantInput {
  bytes: Uint8Array;
  parsed(): Parsed;
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
  return {
    bytes,
    parsed() {
      if (memo === null) {
        try {
          memo = { ok: true, value: JSON.parse(strictDecoder.decode(bytes)) };
        } catch {
          memo = { ok: false };
        }
      }
      return memo;
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
  { variant: 'compact-json', label: 'the body re-serialized as compact JSON (JSON.stringify(JSON.parse(body)))', reserializes: true, make: (i) => reserialized(i, undefined) },
  { variant: 'pretty-2', label: 'the body pretty-printed with 2 spaces', reserializes: true, make: (i) => reserialized(i, 2) },
  { variant: 'pretty-4', label: 'the body pretty-printed with 4 spaces', reserializes: true, make: (i) => reserialized(i, 4) },
  // Many serializers write a file-style newline after pretty-printed JSON.
  { variant: 'pretty-2-newline', label: 'the body pretty-printed with 2 spaces and a final newline', reserializes: true, make: (i) => reserialized(i, 2, '\n') },
  { variant: 'pretty-4-newline', label: 'the body pretty-printed with 4 spaces and a final newline', reserializes: true, make: (i) => reserialized(i, 4, '\n') },
  { variant: 'sorted-keys', label: 'the body re-serialized with its keys sorted', reserializes: true, make: (i) => reserialized(i, undefined, '', sortKeysDeep) },
];
