// A HAR's text written entry by entry, yielding the event loop between entries: the loop is the proxy's,
// and a HAR of thousands of exchanges built and stringified in one go would hold every callback behind it
// for as long. The text is byte for byte what JSON.stringify(har, null, 2) gives for the whole HAR.
import { setImmediate as turn } from 'node:timers/promises';
import type { ExchangeDetail } from '../../shared/model';
import { harEntry, harWith } from './har-build';

/** Details read per round trip to the store: enough to amortize a read, few enough to hold little memory. */
const READ_SLICE = 50;

/** Depth of an entry in `{ log: { entries: [ ... ] } }`, at two spaces a level. */
const ENTRY_INDENT = '      ';

function entryText(x: ExchangeDetail, secrets: readonly string[]): string {
  // JSON escapes newlines inside strings, so every newline of the text is a line break of the layout.
  return ENTRY_INDENT + JSON.stringify(harEntry(x, secrets), null, 2).replaceAll('\n', `\n${ENTRY_INDENT}`);
}

/** The HAR 1.2 text (pretty-printed, one final newline) of the exchanges `ids` names that `get` finds. */
export async function harText(
  ids: readonly number[],
  get: (id: number) => Promise<ExchangeDetail | null>,
  secrets: readonly string[],
  comment: string,
): Promise<string> {
  const parts: string[] = [];
  for (let from = 0; from < ids.length; from += READ_SLICE) {
    const details = await Promise.all(ids.slice(from, from + READ_SLICE).map(get));
    for (const x of details) {
      if (x === null) continue;
      parts.push(entryText(x, secrets));
      await turn();
    }
  }
  const frame = JSON.stringify(harWith([], comment), null, 2);
  if (parts.length === 0) return `${frame}\n`;
  // The frame's only empty array is the entries': its comment is escaped JSON, and comes after it.
  const at = frame.indexOf('"entries": []') + '"entries": ['.length;
  return `${frame.slice(0, at)}\n${parts.join(',\n')}\n    ${frame.slice(at)}\n`;
}
