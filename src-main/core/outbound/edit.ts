// Body edits for replay and send: raw replacement keeps bytes exactly; field edits parse the JSON,
// change it by path and re-serialize it compactly (so number spellings like 10.50 and \u escapes
// do not survive a field edit: use a raw body for byte-exact tests).
import { parseCliValue, setPath, toBytes, unsetPath } from '../protocol';
import { DeskFailure } from '../result';
import { strictBase64 } from './base64';

export interface BodyEdits {
  set?: Array<{ path: string; value: unknown }> | undefined;
  unset?: string[] | undefined;
  /** Replaces the body before any field edit. */
  bodyBase64?: string | undefined;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Strict base64 (white space ignored): a typo must not silently become other bytes. */
export function decodeBase64(text: string, what: string): Uint8Array {
  if (typeof text !== 'string') throw new DeskFailure('bad-input', `${what} must be given as base64 text.`);
  const bytes = strictBase64(text);
  if (bytes === null) throw new DeskFailure('bad-input', `${what} is not valid base64.`);
  return new Uint8Array(bytes);
}

function parseBody(body: Uint8Array): unknown {
  try {
    return JSON.parse(strictUtf8.decode(body));
  } catch (err) {
    throw new DeskFailure(
      'bad-input',
      `The body is not UTF-8 JSON (${(err as Error).message}), so its fields cannot be edited; replace the whole body instead.`,
    );
  }
}

export function hasEdits(edits: BodyEdits): boolean {
  return (edits.set?.length ?? 0) > 0 || (edits.unset?.length ?? 0) > 0 || edits.bodyBase64 !== undefined;
}

/** The body after the edits; the input bytes are returned unchanged when there is nothing to do. */
export function applyEdits(body: Uint8Array, edits: BodyEdits): Uint8Array {
  const base = edits.bodyBase64 !== undefined ? decodeBase64(edits.bodyBase64, 'The replacement body') : body;
  const sets = edits.set ?? [];
  const unsets = edits.unset ?? [];
  if (sets.length === 0 && unsets.length === 0) return base;
  let value = parseBody(base);
  try {
    for (const path of unsets) value = unsetPath(value, path);
    for (const { path, value: v } of sets) value = setPath(value, path, v);
  } catch (err) {
    throw new DeskFailure('bad-input', `Cannot edit the body: ${(err as Error).message}`);
  }
  return toBytes(value);
}

/** PATH=VALUE as the CLI writes it: the value is JSON where it parses, else the text. */
export function parseSetArgument(arg: string): { path: string; value: unknown } {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new DeskFailure('bad-input', `--set expects PATH=VALUE (like amount=7.5), got "${arg}".`);
  return { path: arg.slice(0, eq), value: parseCliValue(arg.slice(eq + 1)) };
}
