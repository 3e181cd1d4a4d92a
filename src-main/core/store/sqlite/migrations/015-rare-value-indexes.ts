// Fewer index entries for each capture. Every insert updated ten secondary indexes, five of them added
// with the profile column; that upkeep was the largest single piece of what a capture cost more than
// before (BENCHMARKS.md, section 1). The verdict and kind indexes, plain and per profile, now hold only their rare values
// (rare-values.ts says why and how a query uses them): a valid pay or results callback, nearly every
// row, gets no entry in those four. A normal capture updates six secondary indexes: direction, deposit
// and user, plain and per profile. The deposit and user ones stay whole: a deposit's or a user's rows,
// in one profile or all, are what support staff look up most, and each stays an exact index walk.
import type { Db } from '../db';

export function up(db: Db): void {
  db.exec(`
    DROP INDEX exchanges_verdict;
    DROP INDEX exchanges_kind;
    DROP INDEX exchanges_profile_verdict;
    DROP INDEX exchanges_profile_kind;
    CREATE INDEX exchanges_verdict         ON exchanges (verdict, id)          WHERE verdict <> 'valid';
    CREATE INDEX exchanges_kind            ON exchanges (kind, id)             WHERE kind NOT IN ('pay', 'results');
    CREATE INDEX exchanges_profile_verdict ON exchanges (profile, verdict, id) WHERE verdict <> 'valid';
    CREATE INDEX exchanges_profile_kind    ON exchanges (profile, kind, id)    WHERE kind NOT IN ('pay', 'results');
  `);
}
