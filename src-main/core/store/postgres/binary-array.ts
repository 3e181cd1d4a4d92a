// A JS array as PostgreSQL's binary array format, the form array_recv reads. node-postgres sends a JS
// array as the text of an array literal (every element quoted and escaped, every byte string as `\x` and
// its hex, twice its size) that the server parses back element by element; a Buffer parameter it sends
// in binary instead. The proxy's writes carry each group as one array per column, bodies included, so
// both ends skip the text: the bytes go as they are, numbers as their 8 bytes.
//
// The values reaching the table are the ones the text form gave: a string as its UTF-8 (a lone surrogate
// as U+FFFD, as Buffer's encoding and the driver's both write it), a double by its value with -0 as 0
// (the text form wrote String(-0), "0"), an integer beyond 2^53 by its String() digits. What the text form would have refused (a fraction for an
// integer, a value out of range, a NUL in a text) is refused here, with the column's element and value.

/** The element types the writers send, by their names in PostgreSQL. */
export type ArrayElement = 'int8' | 'int4' | 'float8' | 'bool' | 'text' | 'bytea';

/** array_recv checks the element's type in the header against the parameter's: pg_type's OIDs. */
const ELEMENT_OID: Record<ArrayElement, number> = { int8: 20, int4: 23, float8: 701, bool: 16, text: 25, bytea: 17 };

/** Fixed-size elements' sizes; text and bytea are as long as their bytes. */
const FIXED_SIZE: Partial<Record<ArrayElement, number>> = { int8: 8, int4: 4, float8: 8, bool: 1 };

/** Header: ndim, has-null flag, element OID, then one dimension's size and lower bound. */
const HEADER = 20;
const TWO_32 = 2 ** 32;
/**
 * Strings up to this length that are all ASCII are measured and copied in a JS loop: most of a capture's
 * texts are short (a kind, a method, a timestamp), and the native UTF-8 calls cost more than the copy
 * (0.73x the encoding time of a group of arrays, in-process).
 */
const SHORT_TEXT = 48;
const INT8_MIN = -(2n ** 63n);
const INT8_MAX = 2n ** 63n - 1n;

const refuse = (element: ArrayElement, value: unknown, why: string): TypeError =>
  new TypeError(`A ${element} array element cannot be ${describe(value)}: ${why}.`);

function describe(value: unknown): string {
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A variable-size element's bytes as it is sent (a string's UTF-8, a body's own bytes). */
function varBytes(element: 'text' | 'bytea', value: unknown): number {
  if (element === 'text') {
    if (typeof value !== 'string') throw refuse(element, value, 'a text element is a string');
    if (value.includes('\u0000')) throw refuse(element, value, 'PostgreSQL text cannot hold U+0000');
    const n = value.length;
    if (n <= SHORT_TEXT) {
      let i = 0;
      while (i < n && value.charCodeAt(i) < 0x80) i++;
      if (i === n) return n;
    }
    return Buffer.byteLength(value, 'utf8');
  }
  if (!(value instanceof Uint8Array)) throw refuse(element, value, 'a bytea element is a Buffer or a Uint8Array');
  return value.byteLength;
}

/** A string's UTF-8 at `at`; `length` (its byte length) equals its length only when it is all ASCII. */
function writeText(out: Buffer, at: number, text: string, length: number): void {
  if (length === text.length && length <= SHORT_TEXT) for (let j = 0; j < length; j++) out[at + j] = text.charCodeAt(j);
  else out.write(text, at, length, 'utf8');
}

function writeInt8(out: Buffer, at: number, value: unknown): void {
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
    // Two 32-bit halves, no BigInt: the high half floored, so a negative value's low half is its two's complement.
    const high = Math.floor(value / TWO_32);
    out.writeInt32BE(high, at);
    out.writeUInt32BE(value - high * TWO_32, at + 4);
    return;
  }
  if (typeof value === 'number' && !Number.isInteger(value)) throw refuse('int8', value, 'not an integer');
  if (typeof value !== 'number' && typeof value !== 'bigint') throw refuse('int8', value, 'an int8 element is a number or a bigint');
  // Beyond 2^53 a double is not one integer but the nearest of several: the value is the decimal the text
  // form sent (its shortest digits, 2^62 as 4611686018427388000), so both forms store the same.
  const big = typeof value === 'number' ? BigInt(String(value)) : value;
  if (big < INT8_MIN || big > INT8_MAX) throw refuse('int8', value, 'out of the 64-bit range');
  out.writeBigInt64BE(big, at);
}

function writeFixed(element: ArrayElement, out: Buffer, at: number, value: unknown): void {
  switch (element) {
    case 'int8':
      return writeInt8(out, at, value);
    case 'int4':
      if (typeof value !== 'number' || !Number.isInteger(value)) throw refuse(element, value, 'not an integer');
      if (value < -(2 ** 31) || value >= 2 ** 31) throw refuse(element, value, 'out of the 32-bit range');
      out.writeInt32BE(value, at);
      return;
    case 'float8':
      if (typeof value !== 'number') throw refuse(element, value, 'a float8 element is a number');
      out.writeDoubleBE(value === 0 ? 0 : value, at);
      return;
    case 'bool':
      if (typeof value !== 'boolean') throw refuse(element, value, 'a bool element is a boolean');
      out[at] = value ? 1 : 0;
      return;
    default:
      throw new Error(`${element} is not a fixed-size element.`);
  }
}

/**
 * `values` as a one-dimensional PostgreSQL array of `element`, in binary (a Buffer, which node-postgres
 * sends as a binary parameter); null and undefined are NULL. Throws a TypeError for a value the element
 * type cannot hold exactly.
 */
export function binaryArray(element: ArrayElement, values: readonly unknown[]): Buffer {
  const n = values.length;
  const fixed = FIXED_SIZE[element];
  // The sizes first, so the array is one allocation; a variable element's length is kept for its write.
  const lengths = fixed === undefined ? new Array<number>(n) : null;
  let size = n === 0 ? 12 : HEADER;
  let hasNull = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    let length: number;
    if (v === null || v === undefined) {
      hasNull = 1;
      length = 0;
    } else length = fixed ?? varBytes(element as 'text' | 'bytea', v);
    if (lengths) lengths[i] = length;
    size += 4 + length;
  }
  const out = Buffer.allocUnsafe(size);
  // An empty array has no dimension (as array_send writes it, and as '{}' reads).
  out.writeInt32BE(n === 0 ? 0 : 1, 0);
  out.writeInt32BE(hasNull, 4);
  out.writeInt32BE(ELEMENT_OID[element], 8);
  if (n === 0) return out;
  out.writeInt32BE(n, 12);
  out.writeInt32BE(1, 16);
  let at = HEADER;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null || v === undefined) {
      out.writeInt32BE(-1, at);
      at += 4;
      continue;
    }
    const length = lengths ? lengths[i]! : fixed!;
    out.writeInt32BE(length, at);
    at += 4;
    if (element === 'text') writeText(out, at, v as string, length);
    else if (element === 'bytea') out.set(v as Uint8Array, at);
    else writeFixed(element, out, at, v);
    at += length;
  }
  return out;
}
