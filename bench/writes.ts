// Benchmark 5: what one capture costs the store's write path, in this process, without HTTP. The proxy
// benchmark shows a forwarded capture at about twice the floor's CPU; this one takes the SQLite part of
// that apart. Rows are the store benchmark's realistic captures (exchange-rows.ts: 10,000 users, a new
// deposit for each pay), written through the real ExchangeStore into a real file the way the proxy writes
// them: a group commit of B requests' inserts plus the previous group's completions, one transaction
// each, and a PASSIVE checkpoint every 100 commits, timed apart here. (serve's checkpoint worker runs
// every 500 ms, some 400 commits at 9,000 req/s: a page dirtied again in between is copied once, so the
// checkpoint share here is, if anything, a little high for the hot pages; random index pages cost alike.)
// Variants, in interleaved rounds on fresh files, as ratios to the schema as shipped:
//   shipped         the real schema and statements
//   one key         every row the same deposit and user: what `--only proxy` sends unless --distinct-keys
//   no key indexes  without the deposit and user indexes (what those two cost)
//   no indexes      without any secondary index (the table alone)
//   old text triggers  with the text index's update triggers of migration 009 put back (idle for new rows:
//                      what their WHEN clause, which reads exchange_text_state per answer, cost the answer UPDATE;
//                      migration 012 removed them)
//   no profile indexes  without the five (profile, ...) indexes of migration 008 (what they cost), with
//                       realistic keys and with one key
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../src-main/core/store/sqlite/open';
import { ExchangeStore } from '../src-main/core/store/sqlite/exchanges';
import type { ExchangeCompletion, NewExchange } from '../src-main/core/store/sqlite';
import { answerText, hasAnswer, requestText } from '../src-main/core/store/sqlite/migrations/009-search-and-saved-requests';
import { generateRows } from './lib/exchange-rows';
import { fmtRatio, percentile } from './lib/stats';
import { table } from './lib/table';

export interface WriteVariant {
  name: string;
  /** Indexes dropped before writing. */
  drop: readonly string[];
  /** Triggers dropped before writing. */
  dropTriggers?: readonly string[];
  /** Every row gets the first row's deposit and user. */
  oneKey: boolean;
  /** SQL run before writing (triggers of an older schema). */
  add?: string;
}

const INDEXED = (r: 'new' | 'old'): string => `${r}.id <= (SELECT indexed_upto FROM exchange_text_state)`;

/** The update triggers migration 009 created and 012 dropped, as they were. */
export const OLD_TEXT_TRIGGERS = `
CREATE TRIGGER exchange_text_request
AFTER UPDATE OF method, path, query, target, req_headers, req_body, deposit_id, user_id, game_id, tournament_id ON exchanges
WHEN ${INDEXED('new')} BEGIN
  INSERT OR REPLACE INTO exchange_text (rowid, text) VALUES (new.id * 2, ${requestText('new')});
END;
CREATE TRIGGER exchange_text_answer AFTER UPDATE OF res_status, res_headers, res_body, error ON exchanges WHEN ${INDEXED('old')} BEGIN
  DELETE FROM exchange_text WHERE ${hasAnswer('old')} AND rowid = old.id * 2 + 1;
  INSERT INTO exchange_text (rowid, text) SELECT new.id * 2 + 1, ${answerText('new')} WHERE ${hasAnswer('new')};
END;`;

/** The five indexes led by the profile (migration 008), beside the list's own five. */
const PROFILE_INDEXES = ['direction', 'deposit', 'user', 'verdict', 'kind'].map((c) => `exchanges_profile_${c}`);

export const VARIANTS: readonly WriteVariant[] = [
  { name: 'shipped', drop: [], oneKey: false },
  { name: 'one key', drop: [], oneKey: true },
  { name: 'no key indexes', drop: ['exchanges_deposit', 'exchanges_user'], oneKey: false },
  {
    name: 'no indexes',
    drop: ['exchanges_direction', 'exchanges_deposit', 'exchanges_user', 'exchanges_verdict', 'exchanges_kind', 'exchanges_source'],
    oneKey: false,
  },
  { name: 'old text triggers', drop: [], add: OLD_TEXT_TRIGGERS, oneKey: false },
  { name: 'no profile indexes', drop: PROFILE_INDEXES, oneKey: false },
  { name: 'one key, no profile indexes', drop: PROFILE_INDEXES, oneKey: true },
];

export interface WriteRun {
  /** Insert, completion and commit, per request, in µs (the event loop's share in the proxy). */
  writeUs: number;
  /** The checkpoints' share per request, in µs (the checkpoint worker's share in the proxy). */
  checkpointUs: number;
  /** The answer's UPDATE per request, in µs (part of writeUs): what an answer trigger adds to. */
  completeUs: number;
  /** WAL frames per commit, from the checkpoints' own counts. */
  framesPerCommit: number;
  /** Every capture is a row with its response recorded, read back from the file at the end. */
  written: boolean;
}

export interface WriteRow extends WriteVariant {
  runs: WriteRun[];
  writeUs: number;
  checkpointUs: number;
  completeUs: number;
  /** Median of the per-round ratios of completeUs to the shipped variant's. */
  completeVsShipped: number | null;
  framesPerCommit: number;
  /** Median of the per-round ratios of (write + checkpoint) to the shipped variant's. */
  vsShipped: number | null;
}

export interface WriteBenchResult {
  requests: number;
  batch: number;
  rounds: number;
  rows: WriteRow[];
  allWritten: boolean;
}

export interface WriteBenchOptions {
  requests: number;
  batch: number;
  rounds: number;
  log(line: string): void;
}

const CHECKPOINT_EVERY = 100;

function captures(count: number): Array<{ row: NewExchange; completion: ExchangeCompletion }> {
  const out: Array<{ row: NewExchange; completion: ExchangeCompletion }> = [];
  // Inbound captures only: what the proxy writes.
  for (const g of generateRows(count * 2, 7, [])) {
    if (g.row.direction !== 'inbound') continue;
    out.push({ row: g.row, completion: g.completion });
    if (out.length === count) break;
  }
  return out;
}

function runVariant(v: WriteVariant, rows: ReturnType<typeof captures>, batch: number): WriteRun {
  const dir = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'wager-desk-writes-'));
  const db = openDatabase(join(dir, 'desk.sqlite'));
  try {
    for (const index of v.drop) db.exec(`DROP INDEX ${index}`);
    for (const trigger of v.dropTriggers ?? []) db.exec(`DROP TRIGGER ${trigger}`);
    if (v.add) db.exec(v.add);
    db.pragma('wal_autocheckpoint = 0');
    const store = new ExchangeStore(db);
    const commit = db.transaction((work: () => void) => work());
    const keys = rows[0]!.row.keys;
    let previous: Array<{ id: number; completion: ExchangeCompletion }> = [];
    let writeMs = 0;
    let checkpointMs = 0;
    let completeMs = 0;
    let frames = 0;
    let commits = 0;
    for (let start = 0; start < rows.length; start += batch) {
      const group = rows.slice(start, start + batch);
      const t = performance.now();
      commit.immediate(() => {
        const ids = group.map((c) => ({ id: store.insert(v.oneKey ? { ...c.row, keys } : c.row).id, completion: c.completion }));
        const c = performance.now();
        for (const p of previous) store.complete(p.id, p.completion);
        completeMs += performance.now() - c;
        previous = ids;
      });
      writeMs += performance.now() - t;
      commits++;
      if (commits % CHECKPOINT_EVERY === 0 || start + batch >= rows.length) {
        const c = performance.now();
        const [state] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>;
        checkpointMs += performance.now() - c;
        frames += state?.log ?? 0;
      }
    }
    commit.immediate(() => previous.forEach((p) => store.complete(p.id, p.completion)));
    // The variant is what it says: every row and response there, its deposits as many as it promised,
    // and the indexes it dropped gone.
    const counted = db.prepare('SELECT count(*) AS n, count(res_status) AS answered, count(DISTINCT deposit_id) AS deposits FROM exchanges').get() as {
      n: number;
      answered: number;
      deposits: number;
    };
    const expectedDeposits = v.oneKey ? 1 : new Set(rows.flatMap((c) => (c.row.keys.depositId === null ? [] : [c.row.keys.depositId]))).size;
    const dropped = [...v.drop, ...(v.dropTriggers ?? [])];
    const left = db
      .prepare(`SELECT count(*) FROM sqlite_master WHERE type IN ('index', 'trigger') AND name IN (${dropped.map(() => '?').join(', ') || "''"})`)
      .pluck()
      .get(...dropped) as number;
    return {
      writeUs: (writeMs * 1000) / rows.length,
      checkpointUs: (checkpointMs * 1000) / rows.length,
      completeUs: (completeMs * 1000) / rows.length,
      framesPerCommit: frames / commits,
      written: counted.n === rows.length && counted.answered === rows.length && counted.deposits === expectedDeposits && left === 0,
    };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function runWriteBench(o: WriteBenchOptions): WriteBenchResult {
  const rows = captures(o.requests);
  o.log(`${rows.length.toLocaleString('en-US')} inbound captures a run, ${o.batch} requests a commit, ${o.rounds} rounds`);
  const runs = new Map<string, WriteRun[]>();
  for (let round = 1; round <= o.rounds; round++) {
    // Interleaved: a burst of load from elsewhere on the machine hits every variant alike.
    for (const v of VARIANTS) {
      const run = runVariant(v, rows, o.batch);
      runs.set(v.name, [...(runs.get(v.name) ?? []), run]);
      o.log(
        `  r${round} ${v.name}: ${run.writeUs.toFixed(1)} µs write (${run.completeUs.toFixed(1)} the answer's UPDATE) + ${run.checkpointUs.toFixed(1)} µs checkpoint a request, ` +
          `${run.framesPerCommit.toFixed(1)} WAL frames a commit, rows check: ${run.written ? 'ok' : 'MISMATCH'}`,
      );
    }
  }
  const shipped = runs.get('shipped') ?? [];
  const total = (r: WriteRun): number => r.writeUs + r.checkpointUs;
  return {
    allWritten: [...runs.values()].every((list) => list.every((r) => r.written)),
    requests: rows.length,
    batch: o.batch,
    rounds: o.rounds,
    rows: VARIANTS.map((v) => {
      const mine = runs.get(v.name) ?? [];
      const ratios = mine.flatMap((r, i) => (shipped[i] ? [total(r) / total(shipped[i])] : []));
      const completeRatios = mine.flatMap((r, i) => (shipped[i] && shipped[i].completeUs > 0 ? [r.completeUs / shipped[i].completeUs] : []));
      return {
        ...v,
        runs: mine,
        writeUs: percentile(
          mine.map((r) => r.writeUs),
          50,
        ),
        checkpointUs: percentile(
          mine.map((r) => r.checkpointUs),
          50,
        ),
        completeUs: percentile(
          mine.map((r) => r.completeUs),
          50,
        ),
        completeVsShipped: completeRatios.length > 0 ? percentile(completeRatios, 50) : null,
        framesPerCommit: percentile(
          mine.map((r) => r.framesPerCommit),
          50,
        ),
        vsShipped: ratios.length > 0 ? percentile(ratios, 50) : null,
      };
    }),
  };
}

export function formatWriteResult(r: WriteBenchResult): string {
  return [
    `median of ${r.rounds} rounds; ${r.requests.toLocaleString('en-US')} captures a run, ${r.batch} requests a commit`,
    table(
      ['variant', 'write µs/req', 'answer UPDATE µs/req', 'checkpoint µs/req', 'WAL frames/commit', 'vs shipped', 'answer UPDATE vs shipped'],
      r.rows.map((row) => [
        row.name,
        row.writeUs.toFixed(1),
        row.completeUs.toFixed(1),
        row.checkpointUs.toFixed(1),
        row.framesPerCommit.toFixed(1),
        fmtRatio(row.vsShipped),
        fmtRatio(row.completeVsShipped),
      ]),
    ),
  ].join('\n');
}
