// Which profile an action acts on. Lists, timelines, tails, exports, redeliveries and re-verifications
// stay inside one operator: the profile named, else the active one. Listing, tail and export may span
// every profile when asked (allProfiles); a desk without profiles has only unassigned rows, all shown.
import { searchProblem } from '../../shared/search-text';
import { DeskFailure } from '../result';
import type { DeskContext } from './context';

/** The named profile (an unknown name is not-found), else the active one; null: the desk has no profile. */
export function actingProfile(ctx: DeskContext, named?: string | null): string | null {
  if (typeof named === 'string') {
    // Only whether it exists: reading it whole would open its sealed secrets, which a list or a timeline
    // never needs (a desk with a lost key still lists and shows captures).
    if (!ctx.store.profiles.get(named)) throw new DeskFailure('not-found', `No profile named "${named}".`);
    return named;
  }
  return ctx.store.profiles.activeName();
}

type Scopable = { profile?: string; allProfiles?: boolean; search?: string };

/** A query as the store takes it: one profile's rows (named, else active), or every row (allProfiles, or no profile at all). */
export function scopedQuery<Q extends Scopable>(ctx: DeskContext, q: Q): Omit<Q, 'profile' | 'allProfiles'> & { profile?: string } {
  // Every query passes here on its way to the store: a search is bounded before any work (search-text.ts).
  const problem = typeof q.search === 'string' ? searchProblem(q.search) : null;
  if (problem) throw new DeskFailure('bad-input', `The search is refused: ${problem}.`);
  const { profile: named, allProfiles, ...rest } = q;
  if (allProfiles === true) return rest;
  const profile = actingProfile(ctx, named);
  return profile === null ? rest : { ...rest, profile };
}
