// The verdict and kind indexes hold only a column's rare values (a partial index). Nearly every capture
// is a valid pay or results callback, and an index entry for each was paid on every insert for lists that
// never need it: a filter on a common value finds its rows at once along the direction or profile indexes
// (most rows pass it), while a filter on a rare value (a mismatch, a token request) must seek its few rows.
//
// SQLite uses a partial index only when the query itself holds the index's condition, word for word (it
// does not infer `verdict <> 'valid'` from `verdict = @verdict`), so a filter on a rare value carries that
// condition as a term of its own: rareValueTerms. Migration 015 writes these conditions into the schema;
// a test checks that the two agree.
import type { ExchangeKind, Verdict } from '../../../shared/model';

/** The verdict index's condition: every verdict but the common one. */
export const RARE_VERDICT = "verdict <> 'valid'";
/** The kind index's condition: every kind but the two callbacks. */
export const RARE_KIND = "kind NOT IN ('pay', 'results')";

const COMMON_VERDICT: Verdict = 'valid';
const COMMON_KINDS: readonly ExchangeKind[] = ['pay', 'results'];

interface ValueFilter {
  kind?: ExchangeKind | undefined;
  verdict?: Verdict | undefined;
  depositId?: string | undefined;
  userId?: string | undefined;
}

/**
 * The partial indexes' conditions a filter on these values implies, to be ANDed to its terms (`alias`:
 * the table's, `e.` in a query that names it). None for common values: their rows are found along another
 * index. None either beside a deposit or user filter: that column's own index finds fewer rows, and
 * without the condition the planner cannot pick the verdict's or kind's index instead (with it, it would
 * take either: to SQLite, two equalities on either index weigh the same).
 */
export function rareValueTerms(f: ValueFilter, alias = ''): string[] {
  const terms: string[] = [];
  if (f.depositId || f.userId) return terms;
  if (f.verdict !== undefined && f.verdict !== COMMON_VERDICT) terms.push(`${alias}${RARE_VERDICT}`);
  if (f.kind !== undefined && !COMMON_KINDS.includes(f.kind)) terms.push(`${alias}${RARE_KIND}`);
  return terms;
}
