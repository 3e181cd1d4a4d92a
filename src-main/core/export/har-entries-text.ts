// The text of a HAR's entries, as JSON.stringify(har, null, 2) lays them out inside the whole HAR, from
// the rows the log read (rows/exchange-rows.ts). Built on the export thread (desk/export-thread-main.ts),
// rows to text, and here where no thread can start.
import { setImmediate as turn } from 'node:timers/promises';
import type { ExchangeDetail } from '../../shared/model';
import { toDetails, type DetailRows } from '../store/rows/exchange-rows';
import { readElsewhere, type ExportRead } from '../store/rows/export-rows';
import { harEntry } from './har-build';

/** Depth of an entry in `{ log: { entries: [ ... ] } }`, at two spaces a level. */
const ENTRY_INDENT = '      ';

/** A slice of an export: the ids in the HAR's order, and their rows as the log read them (or where to read them). */
export interface HarSlice {
  ids: readonly number[];
  found: ExportRead;
}

/** A slice whose rows are read. */
export interface ReadSlice extends HarSlice {
  found: DetailRows;
}

function entryText(x: ExchangeDetail, secrets: readonly string[]): string {
  // JSON escapes newlines inside strings, so every newline of the text is a line break of the layout.
  return ENTRY_INDENT + JSON.stringify(harEntry(x, secrets), null, 2).replaceAll('\n', `\n${ENTRY_INDENT}`);
}

/** The entries of the slice's exchanges that exist, in order, with the separator the HAR puts between them ('' for none). */
export function harEntriesText(slice: ReadSlice, secrets: readonly string[]): string {
  return toDetails(slice.ids, slice.found)
    .map((x) => entryText(x, secrets))
    .join(',\n');
}

/** What a HAR's entries are built with: on the export thread, or here. */
export type HarEntriesBuilder = (slice: HarSlice, secrets: readonly string[]) => Promise<string>;

/**
 * Builds the entries on the calling thread (a desk where the export thread cannot start), yielding the
 * event loop between entries: the loop may be the proxy's, and a slice built in one go would hold every
 * callback behind it for as long.
 */
export const harEntriesHere: HarEntriesBuilder = async (slice, secrets) => {
  const found = readElsewhere(slice.found) ? await slice.found.readHere() : slice.found;
  const parts: string[] = [];
  for (const x of toDetails(slice.ids, found)) {
    parts.push(entryText(x, secrets));
    await turn();
  }
  return parts.join(',\n');
};
