// A 2XX is not always an acceptance: an operator that did not act on a request often says so in a
// success body ({"ignored":"unknown deposit"}). Shared so the conformance check, the composer and the
// CLI's send and replay read such an answer the same way, and none shows it as a plain 200.

/** Words with which an operator says it did not act on a request. */
const NOT_ACTED = /\b(ignored|ignoring|ignore|unknown|not found|no such|does not exist|not exist|skipped)\b/i;

/** Words right after a match that make it about a part of the message, not the request ("ignored unknown field"). */
const ABOUT_A_FIELD = /^\W*(?:\w+\W+){0,2}?(?:fields?|keys?|propert(?:y|ies)|param(?:eter)?s?|attributes?|members?)\b/i;

/**
 * The words of a success body that say the request was not acted on, quoted, or null. Echoed ids are
 * not read, nor words about a field of the message ("ignored unknown field" is a warning about a
 * field, not a refusal of the deposit).
 */
export function notActedWords(o: { body: string | null; sentIds: readonly string[] }): string | null {
  let text = o.body ?? '';
  for (const id of o.sentIds) if (id !== '') text = text.split(id).join('');
  const pattern = new RegExp(NOT_ACTED.source, 'gi');
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (ABOUT_A_FIELD.test(text.slice(match.index + match[0].length, match.index + match[0].length + 40))) continue;
    const from = Math.max(0, match.index - 30);
    const to = Math.min(text.length, match.index + match[0].length + 30);
    return `${from > 0 ? '…' : ''}${text.slice(from, to).replace(/\s+/g, ' ').trim()}${to < text.length ? '…' : ''}`;
  }
  return null;
}

/** Enough of an exchange to read its answer: the status, the body as stored, and the ids the request carried. */
export interface AnsweredExchange {
  response: { status: number; bodyBase64: string } | null;
  depositId: string | null;
  userId: string | null;
}

const READ_AT_MOST = 4096;

function bodyText(base64: string): string | null {
  try {
    const binary = atob(base64.slice(0, Math.ceil(READ_AT_MOST / 3) * 4));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * "the operator answered 200, but its body says "…": it did not act on the request" for a 2XX whose body
 * says it ignored the request, else null.
 */
export function notActedAnswer(x: AnsweredExchange): string | null {
  if (x.response === null || x.response.status < 200 || x.response.status >= 300) return null;
  const ids = [x.depositId, x.userId].filter((id): id is string => id !== null);
  const words = notActedWords({ body: bodyText(x.response.bodyBase64), sentIds: ids });
  return words === null ? null : `the operator answered ${x.response.status}, but its body says "${words}": it did not act on the request`;
}
