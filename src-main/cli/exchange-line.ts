// One line per exchange as it happens: what `tail` prints of rows it reads from the database and what
// `serve --tail` prints of its own exchange events, so both look alike.
import type { ExchangeQuery, ExchangeSummary } from '../shared/model';
import { answerNote, statusWords } from './answer-words';

/** A row is printed once its answer (or the error in its place) is recorded: the line then says how it ended. */
export function isComplete(x: ExchangeSummary): boolean {
  return x.response !== null || x.error !== null || x.durationMs !== null;
}

function clock(at: string): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return at;
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}:${String(d.getSeconds()).padStart(2, '0')}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

function duration(ms: number | null): string {
  if (ms === null) return '-';
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(2)}s`;
}

/**
 * time, direction, (with `withProfile`, the profile,) kind and result, depositId, verdict, status, duration (and the id, to `show` it),
 * then who answered when it was the desk, with why, or the flag of a bad signature the operator accepted.
 */
export function exchangeLine(x: ExchangeSummary, pending = false, withProfile = false): string {
  const what = x.kind === 'results' && x.result ? `results:${x.result}` : x.kind;
  const status = x.answeredBy === 'desk' || x.response ? statusWords(x) : x.error ? `error ${x.error}` : pending ? 'no answer yet' : '-';
  return [
    clock(x.at),
    x.direction.padEnd(8),
    // Lines of several profiles say whose each is (an unassigned capture: -).
    ...(withProfile ? [(x.profile ?? '-').padEnd(12)] : []),
    what.padEnd(16),
    (x.depositId ?? '-').padEnd(12),
    (x.signature.verdict ?? '-').padEnd(9),
    `#${x.id}`.padEnd(8),
    status.padEnd(5),
    duration(x.durationMs),
    answerNote(x),
  ]
    .join('  ')
    .trimEnd();
}

/** One JSON object per line. */
export function exchangeJsonLine(x: ExchangeSummary): string {
  return JSON.stringify(x);
}

/** Whether a summary passes the list's filters (what the database applies for `tail`, applied to events for `serve --tail`). */
export function matchesQuery(x: ExchangeSummary, q: Omit<ExchangeQuery, 'beforeId' | 'limit' | 'search'>): boolean {
  const direction = q.direction ?? 'inbound';
  return (
    (direction === 'all' || x.direction === direction) &&
    (q.kind === undefined || x.kind === q.kind) &&
    (q.result === undefined || x.result === q.result) &&
    (q.verdict === undefined || x.signature.verdict === q.verdict) &&
    (q.depositId === undefined || x.depositId === q.depositId) &&
    (q.userId === undefined || x.userId === q.userId) &&
    (q.allProfiles === true || q.profile === undefined || x.profile === q.profile)
  );
}
