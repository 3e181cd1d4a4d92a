// Whose a deposit is when the profile asked for has none of its exchanges: a deposit id under two
// profiles is two deposits, so a timeline or ticket of the wrong profile is empty. Saying whose it is
// instead, and how to open it there, turns "0 exchanges" (which reads as "nothing happened") into a way on.
import type { ExchangeReader } from '../store/contract/exchange-log';

/** Rows looked at: enough to name every profile a deposit id is seen under in practice. */
const LOOKED_AT = 200;

/** The other profiles (null: unassigned rows) whose exchanges name `depositId`, in first-seen order. */
export async function depositOwners(log: Pick<ExchangeReader, 'list'>, depositId: string, except: string | null | undefined): Promise<Array<string | null>> {
  const page = await log.list({ depositId, direction: 'all', limit: LOOKED_AT });
  const owners = new Set<string | null>(page.items.map((x) => x.profile));
  if (except !== undefined) owners.delete(except);
  return [...owners];
}

/** "profile "lose"'s: open it with --profile lose" (or the unassigned rows', or several profiles'). */
export function ownersHint(owners: ReadonlyArray<string | null>): string {
  const named = owners.filter((p): p is string => p !== null);
  const unassigned = owners.includes(null) ? ['the unassigned captures'] : [];
  const whose = [...named.map((p) => `profile "${p}"`), ...unassigned].join(' and ');
  const way = named.length === 1 ? `--profile ${named[0]}` : named.length > 1 ? '--profile naming one of them' : '--all-profiles in the list';
  return `it is ${whose}'s: open it with ${way}`;
}
