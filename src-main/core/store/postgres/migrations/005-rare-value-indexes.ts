// Fewer index entries for each capture: every new row wrote twelve (the key and eleven secondary
// indexes), a large part of what a capture costs the server in CPU and WAL beyond SQLite's.
//
// - The verdict and kind indexes, plain and per profile, hold only their rare values, as SQLite's
//   (rows/rare-values.ts says why): a valid pay or results callback, nearly every row, gets no entry in
//   those four. A filter on a common value finds its rows along the key or the direction indexes, since
//   most rows pass it. Unlike SQLite, PostgreSQL infers an index's condition from `verdict = 'mismatch'`
//   in a plan made for the values (every read here is), so the reads add no term of their own: one
//   would be counted twice in the planner's estimate of the rows, which then sorts a rare kind's every
//   row rather than reading its newest in order.
// - The per-profile deposit index goes: a deposit has a handful of rows in the whole log, so the plain
//   deposit index finds them all and the profile is tested on each. The user indexes stay both: a test
//   user may have most of a profile's rows, where a read of one profile must not walk every other one's.
// A normal capture now writes six entries: the key, direction and user, plain and per profile, deposit.
// The conditions are written out, as a shipped migration never changes; a test checks they are
// rare-values.ts's.

export const SQL = `
DROP INDEX exchanges_verdict;
DROP INDEX exchanges_kind;
DROP INDEX exchanges_profile_verdict;
DROP INDEX exchanges_profile_kind;
DROP INDEX exchanges_profile_deposit;
CREATE INDEX exchanges_verdict         ON exchanges (verdict, id)          WHERE verdict <> 'valid';
CREATE INDEX exchanges_kind            ON exchanges (kind, id)             WHERE kind NOT IN ('pay', 'results');
CREATE INDEX exchanges_profile_verdict ON exchanges (profile, verdict, id) WHERE verdict <> 'valid';
CREATE INDEX exchanges_profile_kind    ON exchanges (profile, kind, id)    WHERE kind NOT IN ('pay', 'results');
`;
