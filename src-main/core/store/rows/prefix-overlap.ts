// One proxy serves every profile's callback prefix, so no two profiles may share one, nor may one lie
// under another's (/acme and /acme/v2 would leave /acme/v2/pay to whichever the router tried first).
import { DEFAULT_CALLBACK_PREFIX } from '../../protocol/callback-path';
import { DeskFailure } from '../../result';

/** Whether two prefixes are the same or one lies under the other at a segment boundary. */
export function prefixesOverlap(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/** The refusal of a prefix that overlaps another profile's, naming that profile; null when it overlaps none. */
export function overlapRefusal(name: string, prefix: string, others: ReadonlyArray<{ name: string; prefix: string | null }>): DeskFailure | null {
  for (const other of others) {
    if (other.name === name) continue;
    const theirs = other.prefix ?? DEFAULT_CALLBACK_PREFIX;
    if (!prefixesOverlap(prefix, theirs)) continue;
    const how = prefix === theirs ? 'is the callback prefix of' : 'overlaps the callback prefix of';
    return new DeskFailure(
      'bad-input',
      `The callback prefix ${prefix} ${how} profile "${other.name}" (${theirs}): one proxy serves every profile, so each needs a prefix of its own (/${slugOf(name)}, say).`,
    );
  }
  return null;
}

/** A prefix segment made of a profile name: lower case, spaces as dashes. */
export function slugOf(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-');
}
