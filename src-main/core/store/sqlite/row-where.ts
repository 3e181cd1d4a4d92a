// The list's filters as SQLite's SQL, for the list's pages and the walks that read rows in id order
// (re-verification, following the log): each clause is on an indexed column (verdict and kind: their
// rare values), the primary key, or the text index (and, for the rows it does not hold yet, their text
// tested directly).
import { rareValueTerms } from '../rows/rare-values';
import type { RowFilter } from '../rows/row-filter';
import { isTextSearch } from '../rows/search-kind';
import { TEXT_MATCH_CONDITION, textMatchParams } from './text-search';

/** The profile clause of a filter (one index lookup: every list index starts with the profile). */
export function profileWhere(profile: string | null | undefined, where: string[], params: Record<string, unknown>, column = 'profile'): void {
  if (profile === undefined) return;
  if (profile === null) where.push(`${column} IS NULL`);
  else (where.push(`${column} = @profile`), (params.profile = profile));
}

/**
 * The clauses of the list's column filters (direction, kind, result, verdict, deposit, user), with the
 * conditions the rare-value indexes need to be used (rare-values.ts).
 */
export function columnWhere(f: Omit<RowFilter, 'ids' | 'profile' | 'search'>, where: string[], params: Record<string, unknown>): void {
  const direction = f.direction ?? 'inbound';
  if (direction !== 'all') (where.push('direction = @direction'), (params.direction = direction));
  if (f.kind) (where.push('kind = @kind'), (params.kind = f.kind));
  if (f.result) (where.push('result = @result'), (params.result = f.result));
  if (f.verdict) (where.push('verdict = @verdict'), (params.verdict = f.verdict));
  if (f.depositId) (where.push('deposit_id = @deposit'), (params.deposit = f.depositId));
  if (f.userId) (where.push('user_id = @user'), (params.user = f.userId));
  where.push(...rareValueTerms(f));
}

export function filterWhere(f: RowFilter): { where: string[]; params: Record<string, unknown> } {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (!f.allProfiles) profileWhere(f.profile, where, params);
  columnWhere(f, where, params);
  if (f.search && isTextSearch(f.search)) (where.push(TEXT_MATCH_CONDITION), Object.assign(params, textMatchParams(f.search)));
  else if (f.search) {
    // The list's short search: a prefix over depositId and userId, as index ranges on both columns.
    where.push('((deposit_id >= @s AND deposit_id < @sEnd) OR (user_id >= @s AND user_id < @sEnd))');
    params.s = f.search;
    params.sEnd = `${f.search}\u{10FFFF}`;
  }
  if (f.ids) (where.push('id IN (SELECT value FROM json_each(@ids))'), (params.ids = JSON.stringify(f.ids)));
  return { where, params };
}
