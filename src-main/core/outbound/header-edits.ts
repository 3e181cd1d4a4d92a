// Header edits of a replay or a send (`--header 'Name: value'`, `--drop-header NAME`, the composer's
// headers): applied to the headers as signed, so that an edit of the signature header itself is the
// user's word and wins over the signature mode. The framing headers stay the desk's: it sets them from
// the bytes it sends.
import type { HeaderEdits, HeaderList } from '../../shared/model';
import { DeskFailure } from '../result';
import { CONNECTION_HEADERS, SIGNATURE_HEADER, withHeader, withoutHeaders } from './headers';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

function checkName(name: unknown): string {
  if (typeof name !== 'string' || !TOKEN.test(name))
    throw new DeskFailure('bad-input', `"${String(name)}" is not a header name (letters, digits and !#$%&'*+-.^_\`|~).`);
  if (CONNECTION_HEADERS.includes(name.toLowerCase())) {
    throw new DeskFailure('bad-input', `The ${name} header is set by the desk for the connection it sends on; it cannot be edited.`);
  }
  return name;
}

export function hasHeaderEdits(edits: HeaderEdits | undefined): edits is HeaderEdits {
  return edits !== undefined && ((edits.set?.length ?? 0) > 0 || (edits.drop?.length ?? 0) > 0);
}

/** The headers after the edits: drops first, then sets (a set header keeps the place of the one it replaces). */
export function applyHeaderEdits(headers: HeaderList, edits: HeaderEdits): HeaderList {
  const drop = (edits.drop ?? []).map(checkName);
  let out = drop.length > 0 ? withoutHeaders(headers, drop) : headers;
  for (const pair of edits.set ?? []) {
    const [name, value] = Array.isArray(pair) ? pair : [undefined, undefined];
    checkName(name);
    if (typeof value !== 'string' || !VALUE.test(value))
      throw new DeskFailure('bad-input', `The value of ${String(name)} has a character a header cannot carry (a line break?).`);
    out = withHeader(out, name as string, value);
  }
  return out;
}

/** Whether the edits name the signature header: then it is sent as the user gave it, whatever the mode. */
export function editsSignatureHeader(edits: HeaderEdits | undefined): boolean {
  if (!edits) return false;
  const sig = SIGNATURE_HEADER.toLowerCase();
  return (edits.set ?? []).some(([n]) => n.toLowerCase() === sig) || (edits.drop ?? []).some((n) => n.toLowerCase() === sig);
}
