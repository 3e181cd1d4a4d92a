// What one request may cost in storage. A hostile body (deep nesting, thousands of duplicate keys)
// can make the inspection produce a finding per key, each with a path as long as the nesting: stored
// as is, that was a findings column a hundred times the body. So: a bounded count, a bounded length
// per path and message, and a bounded size of the whole record, which the last finding says it cut.
import type { Finding } from '../../shared/model';

/** Findings kept per request, at most (the summary finding included). */
export const MAX_STORED_FINDINGS = 100;
/** Characters of a finding's path kept (a path nested thousands deep says little past this). */
export const MAX_FINDING_PATH = 256;
/** Characters of a finding's message kept. */
export const MAX_FINDING_MESSAGE = 1_024;
/** The findings record of a small body may still say what is wrong with it: never bounded below this. */
export const MIN_FINDINGS_BYTES = 4 * 1024;
/** ...nor above this, whatever the body. */
export const MAX_FINDINGS_BYTES = 64 * 1024;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * Of a request's findings budget, the room kept for the notes made once it is answered (the sandbox's
 * decision, an answer stored cut): the judge's findings take the rest, so the record stays within budget.
 */
export const ANSWER_NOTES_BYTES = 1024;

/** What the judge's own findings may take: the budget, less the room for the answer's notes. */
export function requestFindingsBudget(bodyBytes: number): number {
  return findingsBudget(bodyBytes) - ANSWER_NOTES_BYTES;
}

/** The notes made once a request is answered, within the room kept for them. */
export function boundAnswerNotes(findings: readonly Finding[]): Finding[] {
  return boundFindings(findings, ANSWER_NOTES_BYTES);
}

/** The stored size the findings may take for a body of `bodyBytes`: about the body's own, within the floor and cap. */
export function findingsBudget(bodyBytes: number): number {
  return Math.min(MAX_FINDINGS_BYTES, Math.max(MIN_FINDINGS_BYTES, bodyBytes));
}

function bounded(f: Finding): Finding {
  return f.path.length <= MAX_FINDING_PATH && f.message.length <= MAX_FINDING_MESSAGE
    ? f
    : { ...f, path: cut(f.path, MAX_FINDING_PATH), message: cut(f.message, MAX_FINDING_MESSAGE) };
}

/** Room kept for the finding that says how many were not stored. */
const SUMMARY_ROOM = 200;

/**
 * The findings as stored: each path and message cut to its bound, all of them when they fit the count
 * and the byte budget, else as many as fit followed by one finding that says how many more were not stored.
 */
export function boundFindings(findings: readonly Finding[], budgetBytes: number): Finding[] {
  const kept: Finding[] = [];
  let used = 2;
  for (const f of findings) {
    if (kept.length === MAX_STORED_FINDINGS) break;
    const b = bounded(f);
    const size = Buffer.byteLength(JSON.stringify(b)) + 1;
    if (used + size > budgetBytes) break;
    used += size;
    kept.push(b);
  }
  if (kept.length === findings.length) return kept;
  // Cut: drop from the end until the summary fits the count and the budget.
  while (kept.length > 0 && (kept.length > MAX_STORED_FINDINGS - 1 || used + SUMMARY_ROOM > budgetBytes)) {
    used -= Buffer.byteLength(JSON.stringify(kept.pop())) + 1;
  }
  const left = findings.length - kept.length;
  kept.push({
    level: 'info',
    path: '$',
    message: `${left} more findings not stored (a request keeps at most ${MAX_STORED_FINDINGS} findings in ${budgetBytes} bytes)`,
  });
  return kept;
}
