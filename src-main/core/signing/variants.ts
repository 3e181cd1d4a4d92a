// The ways a sender commonly signs something other than the bytes it sends. Each variant turns the
// received body into what the sender may have signed instead; diagnose() tries them in order.

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

export interface BodyVariant {
  variant: string;
  label: string;
  /** Returns the alternative bytes, or null when the variant does not apply to this body. */
  make(bytes: Uint8Array): Uint8Array | null;
}

function parsed(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false } {
  try {
    let text = strictDecoder.decode(bytes);
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function reserialized(bytes: Uint8Array, indent: number | undefined, suffix = ''): Uint8Array | null {
  const p = parsed(bytes);
  if (!p.ok) return null;
  const out = encoder.encode(JSON.stringify(p.value, null, indent) + suffix);
  return sameBytes(out, bytes) ? null : out;
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

// Small byte-level changes first: when several variants reproduce a signature, the smallest change is
// the likeliest explanation (a pretty-printed body minus its newline is also its 2-space re-serialization).
export const BODY_VARIANTS: readonly BodyVariant[] = [
  {
    variant: 'trailing-newline-added',
    label: 'the body with a trailing newline added',
    make: (b) => {
      const out = new Uint8Array(b.length + 1);
      out.set(b);
      out[b.length] = 0x0a;
      return out;
    },
  },
  {
    variant: 'trailing-newline-removed',
    label: 'the body with its trailing newline removed',
    make: (b) => {
      let end = b.length;
      while (end > 0 && (b[end - 1] === 0x0a || b[end - 1] === 0x0d)) end--;
      return end === b.length ? null : b.slice(0, end);
    },
  },
  {
    variant: 'bom-stripped',
    label: 'the body without its UTF-8 byte order mark',
    make: (b) => (b.length >= 3 && UTF8_BOM.every((v, i) => b[i] === v) ? b.slice(3) : null),
  },
  { variant: 'empty-object', label: 'the body "{}" (the sender signed an empty object for an empty body)', make: (b) => (b.length === 0 ? encoder.encode('{}') : null) },
  { variant: 'compact-json', label: 'the body re-serialized as compact JSON (JSON.stringify(JSON.parse(body)))', make: (b) => reserialized(b, undefined) },
  { variant: 'pretty-2', label: 'the body pretty-printed with 2 spaces', make: (b) => reserialized(b, 2) },
  { variant: 'pretty-4', label: 'the body pretty-printed with 4 spaces', make: (b) => reserialized(b, 4) },
  // Many serializers write a file-style newline after pretty-printed JSON.
  { variant: 'pretty-2-newline', label: 'the body pretty-printed with 2 spaces and a final newline', make: (b) => reserialized(b, 2, '\n') },
  { variant: 'pretty-4-newline', label: 'the body pretty-printed with 4 spaces and a final newline', make: (b) => reserialized(b, 4, '\n') },
  {
    variant: 'sorted-keys',
    label: 'the body re-serialized with its keys sorted',
    make: (b) => {
      const p = parsed(b);
      if (!p.ok) return null;
      const out = encoder.encode(JSON.stringify(sortKeysDeep(p.value)));
      return sameBytes(out, b) ? null : out;
    },
  },
];
