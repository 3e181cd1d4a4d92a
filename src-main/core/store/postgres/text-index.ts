// Filling a team's text index (exchange_text, PostgreSQL migration 002) in batches, as SQLite's
// text-index.ts does: the complete rows after exchange_text_state.indexed_upto, stopping short of a young
// row still in flight (a row in flight for long is indexed without its answer and listed in
// exchange_text_unanswered; its answer is indexed once it comes). The text is made in the database by
// the migration's functions: no body travels to this process.
//
// Two PostgreSQL cares SQLite's single writer does not need:
// - Several processes may index at once. A batch first takes a session advisory lock: the background
//   indexer only tries (another process is at work: this one waits for its next turn), indexAll waits
//   for it. One batch at a time, so each row is indexed once. The batch then reads in one snapshot
//   (REPEATABLE READ, begun once the lock is held, so it sees the last batch's work): a row committing
//   meanwhile is either seen by all its statements or by none.
// - Proxies draw ids from one sequence and commit in their own time: an id the batch passes while no
//   row has it may still commit (a group's ids are drawn at most seconds before its statement,
//   spare-ids.ts). Such ids are kept in exchange_text_gaps; a search tests their rows directly, and
//   each batch indexes those that have shown. A gap is forgotten after GAP_KEEP, far past any write's
//   life (ids drawn up to SPARE_MS ahead, a proxy's statement given up after 10 s), and only the
//   newest GAP_WINDOW ids are kept as gaps at all: older ones were drawn long ago (a copied log's
//   pruned ids, a failed group's).
import type pg from 'pg';
import { IN_FLIGHT_WAIT_MS, IN_FLIGHT_WAIT_ROWS, isComplete } from '../rows/in-flight';

/** How long an id passed with no row is looked for. */
const GAP_KEEP = '10 minutes';
/** Ids further than this below the newest are not kept as gaps. */
const GAP_WINDOW = 1_000_000;

/** The indexers' advisory lock: any fixed number, the same in every Wager Desk ("WDTX"). */
const INDEX_LOCK = 0x57445458;

/** Rows a batch indexes at most. */
export const MAX_BATCH_ROWS = 2_000;

/** Whether the row `r` has its answer's text (an answer, or the error in its place). */
export const hasAnswer = (r: string): string => `(${r}.res_status IS NOT NULL OR ${r}.error IS NOT NULL)`;
const TEXT_OF = (r: string): string => `${r}.id, wager_desk_request_text(${r}), CASE WHEN ${hasAnswer(r)} THEN wager_desk_answer_text(${r}) END`;
const MAX_ID = '(SELECT coalesce(max(id), 0) FROM exchanges)';

export const PG_TEXT_INDEX_SQL = {
  /** Whether a batch has anything to do, the newest id and the rows after indexed_upto: read without any lock. */
  look: `SELECT s.newest > s.upto
          OR EXISTS (SELECT 1 FROM exchange_text_unanswered AS u JOIN exchanges AS e ON e.id = u.exchange_id WHERE ${isComplete('e')})
          OR EXISTS (SELECT 1 FROM exchange_text_gaps AS g WHERE g.since < now() - interval '${GAP_KEEP}' OR EXISTS (SELECT 1 FROM exchanges AS e WHERE e.id = g.id)) AS work,
        s.newest::float8 AS newest, greatest(0, s.newest - s.upto)::float8 AS pending
      FROM (SELECT ${MAX_ID} AS newest, (SELECT indexed_upto FROM exchange_text_state) AS upto) AS s`,
  upTo: 'SELECT indexed_upto::float8 AS upto FROM exchange_text_state',
  /** The last id this batch indexes: at most $2 rows, up to the newest, short of a young row in flight. $3: the cutoff (ISO time), $4: rows. */
  bound: `SELECT least($1::bigint + $2, ${MAX_ID},
      (SELECT min(id) - 1 FROM (SELECT id, at, completed_at, res_status, error FROM exchanges WHERE id > $1 ORDER BY id LIMIT $2) AS e
        WHERE NOT ${isComplete('e')} AND e.at > $3 AND e.id > ${MAX_ID} - $4))::float8 AS bound`,
  fill: `INSERT INTO exchange_text (exchange_id, text, answer) SELECT ${TEXT_OF('e')} FROM exchanges AS e WHERE e.id > $1 AND e.id <= $2`,
  listInFlight: `INSERT INTO exchange_text_unanswered (exchange_id) SELECT id FROM exchanges AS e WHERE id > $1 AND id <= $2 AND NOT ${isComplete('e')}`,
  keepGaps: `INSERT INTO exchange_text_gaps (id) SELECT g FROM generate_series($1::bigint + 1, $2::bigint) AS g
      WHERE g > ${MAX_ID} - ${GAP_WINDOW} AND NOT EXISTS (SELECT 1 FROM exchanges WHERE id = g)`,
  advance: 'UPDATE exchange_text_state SET indexed_upto = $1',
  /** Gaps whose rows have committed since: indexed (without the answer, and listed, if still in flight). */
  indexShown: `WITH shown AS (DELETE FROM exchange_text_gaps AS g WHERE EXISTS (SELECT 1 FROM exchanges AS e WHERE e.id = g.id) RETURNING g.id),
      indexed AS (INSERT INTO exchange_text (exchange_id, text, answer) SELECT ${TEXT_OF('e')} FROM exchanges AS e JOIN shown ON shown.id = e.id RETURNING exchange_id)
    INSERT INTO exchange_text_unanswered (exchange_id) SELECT e.id FROM exchanges AS e JOIN indexed ON indexed.exchange_id = e.id WHERE NOT ${isComplete('e')}`,
  forgetGaps: `DELETE FROM exchange_text_gaps WHERE since < now() - interval '${GAP_KEEP}'`,
  indexLateAnswers: `UPDATE exchange_text AS t SET answer = wager_desk_answer_text(e)
      FROM exchange_text_unanswered AS u JOIN exchanges AS e ON e.id = u.exchange_id WHERE t.exchange_id = u.exchange_id AND ${hasAnswer('e')}`,
  unlistAnswered: `DELETE FROM exchange_text_unanswered AS u USING exchanges AS e WHERE e.id = u.exchange_id AND ${isComplete('e')}`,
  pending: `SELECT greatest(0, ${MAX_ID} - (SELECT indexed_upto FROM exchange_text_state))::float8 AS pending`,
} as const;

export interface PgBatchOutcome {
  /** Rows this batch indexed past indexed_upto. */
  indexed: number;
  /** Rows after indexed_upto once it committed. */
  pending: number;
  /** Another process held the batch's turn (background batches only): nothing was done. */
  skipped: boolean;
}

/**
 * One batch of at most `rows` rows in one transaction on `client` (a connection of its own: the batch
 * holds it for the transaction). `wait`: wait for another process's batch to end, instead of skipping.
 */
export async function indexTextBatch(client: pg.Client, rows = MAX_BATCH_ROWS, wait = true, now = Date.now()): Promise<PgBatchOutcome> {
  if (wait) await client.query('SELECT pg_advisory_lock($1)', [INDEX_LOCK]);
  else if (!(await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1) AS got', [INDEX_LOCK])).rows[0]!.got)
    return { indexed: 0, pending: 0, skipped: true };
  try {
    return await batchInSnapshot(client, rows, now);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [INDEX_LOCK]).catch(() => undefined);
  }
}

async function batchInSnapshot(client: pg.Client, rows: number, now: number): Promise<PgBatchOutcome> {
  const s = PG_TEXT_INDEX_SQL;
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
  try {
    const after = (await client.query<{ upto: number }>(s.upTo)).rows[0]!.upto;
    const cutoff = new Date(now - IN_FLIGHT_WAIT_MS).toISOString();
    const upTo = (await client.query<{ bound: number }>(s.bound, [after, rows, cutoff, IN_FLIGHT_WAIT_ROWS])).rows[0]!.bound;
    if (upTo > after) {
      await client.query(s.fill, [after, upTo]);
      await client.query(s.listInFlight, [after, upTo]);
      await client.query(s.keepGaps, [after, upTo]);
      await client.query(s.advance, [upTo]);
    }
    await client.query(s.indexShown);
    await client.query(s.forgetGaps);
    await client.query(s.indexLateAnswers);
    await client.query(s.unlistAnswered);
    const pending = (await client.query<{ pending: number }>(s.pending)).rows[0]!.pending;
    await client.query('COMMIT');
    return { indexed: Math.max(0, upTo - after), pending, skipped: false };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** What the background indexer sees before a batch (no lock taken). */
export interface TextIndexLook {
  /** Whether a batch would find anything to do. */
  work: boolean;
  /** The newest id: how fast the log grows, from one look to the next. */
  newest: number;
  /** Rows after indexed_upto. */
  pending: number;
}

export async function lookAtTextIndex(client: pg.Client): Promise<TextIndexLook> {
  return (await client.query<TextIndexLook>(PG_TEXT_INDEX_SQL.look)).rows[0]!;
}

/** Batches until no complete row is left to index (rows in flight may stay behind); the rows indexed. */
export async function indexAllText(client: pg.Client, now = Date.now()): Promise<number> {
  let total = 0;
  for (;;) {
    const { indexed } = await indexTextBatch(client, MAX_BATCH_ROWS, true, now);
    total += indexed;
    if (indexed === 0) return total;
  }
}
