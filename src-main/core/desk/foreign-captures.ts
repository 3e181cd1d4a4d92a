// Captures asked for by id that are not the acting profile's. An action scoped to one profile (judged with
// its secrets, sent to its operator) refuses them naming whose they are, rather than skip them unsaid:
// "0 captures" for an id the user can see in the list reads as done.
import type { SharedSql } from '../store/contract/shared-sql';
import { DeskFailure } from '../result';

/** At most this many ids are named in a refusal. */
const NAMED = 10;
/** Ids looked up per statement (written into it: each is a checked integer). */
const CHUNK = 1_000;

/** Throws, naming the owners, when any of `ids` is a capture of another profile (or of none). `what`: the action, for the message. */
export async function refuseOthersCaptures(sql: SharedSql, ids: readonly number[], profile: string, what: string): Promise<void> {
  const wanted = [...new Set(ids.filter((id) => Number.isSafeInteger(id)))];
  for (let from = 0; from < wanted.length; from += CHUNK) {
    const chunk = wanted.slice(from, from + CHUNK);
    const rows = await sql.all<{ id: number; profile: string | null }>(
      `SELECT e.id, e.profile FROM exchanges e WHERE e.id IN (${chunk.join(', ')}) AND e.direction = 'inbound' AND (e.profile IS NULL OR e.profile <> @profile) ORDER BY e.id LIMIT ${NAMED + 1}`,
      { profile },
    );
    if (rows.length === 0) continue;
    const named = rows
      .slice(0, NAMED)
      .map((r) => `#${r.id} (${r.profile === null ? 'unassigned' : `profile "${r.profile}"`})`)
      .join(', ');
    const owners = [...new Set(rows.map((r) => r.profile).filter((p): p is string => p !== null))];
    const way = owners.length === 1 ? `--profile ${owners[0]}` : '--profile naming theirs';
    throw new DeskFailure(
      'bad-input',
      `Not profile "${profile}"'s: ${named}${rows.length > NAMED ? ' and more' : ''}. ${what} one profile's captures with that profile's secrets: run it with ${way}.`,
    );
  }
}
