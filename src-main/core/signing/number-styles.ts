// How each language writes back a number it decoded from JSON. The digits are the shortest that
// round-trip (JavaScript, Python 3 and PHP 7.1+ agree on them); what differs is whether a whole float
// keeps a ".0" and when the exponent form starts.
import type { JsonNumber } from './json-tree';

/** The shortest round-trip digits and the decimal exponent: 1.5e16 -> { digits: "15", exponent: 16 }. */
function shortest(value: number): { negative: boolean; digits: string; exponent: number } {
  const [mantissa, exp] = Math.abs(value).toExponential().split('e') as [string, string];
  return { negative: value < 0 || Object.is(value, -0), digits: mantissa.replace('.', ''), exponent: Number(exp) };
}

/**
 * Python's repr of a float (what json.dumps writes): fixed notation with at least one fraction digit
 * for exponents from -4 to 15 ("100.0", "0.0001"), else "1e+16", "1.5e-05" (two exponent digits at least).
 */
export function pythonFloat(value: number): string {
  if (!Number.isFinite(value)) return JSON.stringify(value);
  const { negative, digits, exponent } = shortest(value);
  const sign = negative ? '-' : '';
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
    const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
    const fraction = digits.slice(exponent + 1);
    return `${sign}${whole}.${fraction === '' ? '0' : fraction}`;
  }
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const e = Math.abs(exponent).toString().padStart(2, '0');
  return `${sign}${mantissa}e${exponent < 0 ? '-' : '+'}${e}`;
}

/** JavaScript (and Go's encoding/json, whose float64 output matches it for JSON): 100.0 is 100. */
export const jsNumber = (n: JsonNumber): string => JSON.stringify(n.value);

/** Python's json.loads keeps integers as int (written back as they were) and the rest as float. */
export const pythonNumber = (n: JsonNumber): string => (n.isFloat ? pythonFloat(n.value) : n.lexeme);

/** A sender that holds every amount as a float: Python writes 100 as 100.0 and 1e16 as 1e+16. */
export const pythonAllFloats = (n: JsonNumber): string => pythonFloat(n.value);

/**
 * PHP's json_decode keeps integers as int and the rest as float; json_encode (7.1+, serialize_precision -1)
 * writes a whole float with ".0". Only the range where that is certain is modelled; larger whole floats
 * are written as JavaScript writes them.
 */
export const phpNumber = (n: JsonNumber): string => {
  if (!n.isFloat) return n.lexeme;
  const v = n.value;
  return Number.isInteger(v) && Math.abs(v) < 1e15 ? `${v}.0` : jsNumber(n);
};
