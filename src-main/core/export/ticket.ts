// A ticket bundle: one deposit's story as Markdown to paste into a support ticket. It says what
// happened in order, what the signatures and bodies got wrong in plain words, and shows the requests
// with every secret redacted and signatures shortened (enough to compare, not to reuse). Every value
// taken from a capture is escaped or put in code (core/markdown.ts): an id holding backticks, a line
// break or `<script>` cannot open a fence, a heading or an HTML block.
import type { ExchangeDetail, HeaderList } from '../../shared/model';
import { diagnosisSummaryShown, signatureNotesShown, verdictWords } from '../../shared/verdict-words';
import type { StoreAndSecrets } from '../secrets';
import type { ExchangeReader } from '../store/contract/exchange-log';
import { toDetails } from '../store/rows/exchange-rows';
import { SIGNATURE_HEADER } from '../outbound/headers';
import { depositOwners, ownersHint } from './deposit-owners';
import { DeskFailure } from '../result';
import { utf8OrNull } from './body-text';
import { redactHeaders, storedSecrets } from '../redact';
import { code, escapeText, fence } from '../markdown';
import { acceptedBadSignature, deskAnswerText, deskAnswered } from '../../shared/exchange-warnings';

const BODY_LIMIT = 8 * 1024;

const time = (iso: string): string => iso.replace('T', ' ').replace(/Z$/, '');

function what(x: ExchangeDetail): string {
  return x.kind === 'results' && x.result ? `results ${x.result}` : x.kind;
}

const SENT_BY: Record<string, string> = {
  replay: 'replay',
  send: 'hand-made send',
  'edge-case': 'edge case',
  check: 'conformance check',
  token: 'token request',
};

function who(x: ExchangeDetail): string {
  if (x.direction === 'inbound') return x.origin === 'har-import' ? 'received (imported from a HAR)' : 'received from the platform';
  return `sent by the desk: ${SENT_BY[x.origin] ?? x.origin}${x.sourceId !== null ? ` of #${x.sourceId}` : ''}`;
}

function status(x: ExchangeDetail): string {
  if (x.response) return deskAnswered(x) ? `${x.response.status} made by the desk: ${x.deskCause}` : String(x.response.status);
  if (deskAnswered(x)) return `no answer, withheld by the desk: ${x.deskCause}`;
  if (x.error) return `no answer: ${x.error}`;
  return x.completedAt === null ? 'pending' : 'no answer';
}

function shortSignature(value: string): string {
  return value.length > 12 ? `${value.slice(0, 12)}… (${value.length} chars)` : value;
}

function ticketHeaders(headers: HeaderList, secrets: readonly string[]): string {
  return redactHeaders(headers, secrets)
    .map(([n, v]) => `${n}: ${n.toLowerCase() === SIGNATURE_HEADER ? shortSignature(v) : v}`)
    .join('\n');
}

function bodyBlock(base64: string): string {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) return '_(empty body)_';
  const shown = bytes.subarray(0, BODY_LIMIT);
  const cut = bytes.length > BODY_LIMIT ? `\n_(first ${BODY_LIMIT} of ${bytes.length} bytes)_` : '';
  const text = utf8OrNull(shown);
  if (text !== null) return `${fence(text, text.trimStart().startsWith('{') ? 'json' : '')}${cut}`;
  return `_${bytes.length} bytes, not valid UTF-8; base64:_\n${fence(shown.toString('base64'))}${cut}`;
}

function signatureCell(x: ExchangeDetail): string {
  const accepted = acceptedBadSignature(x);
  return accepted ? `**${accepted}, accepted by the operator**` : (x.signature.verdict ?? '–');
}

function summaryLines(entries: ExchangeDetail[]): string[] {
  const keyed = entries.find((x) => x.kind === 'pay') ?? entries[0]!;
  const money = keyed.amount !== null ? `${keyed.amount}${keyed.currency ? ` ${escapeText(keyed.currency)}` : ''}` : '–';
  const inbound = entries.filter((x) => x.direction === 'inbound').length;
  // A pay carries no gameId; the deposit's results do.
  const gameId = keyed.gameId ?? entries.find((x) => x.gameId !== null)?.gameId ?? null;
  return [
    `- User: ${keyed.userId === null ? '–' : code(keyed.userId)} · Game: ${gameId === null ? '–' : escapeText(gameId)} · Amount: ${money}${keyed.tournamentId ? ` · Tournament: ${code(keyed.tournamentId)}` : ''}`,
    `- ${entries.length} exchanges (${inbound} received, ${entries.length - inbound} sent by the desk), ${time(entries[0]!.at)} to ${time(entries[entries.length - 1]!.at)} UTC`,
    `- Prepared by Wager Desk at ${time(new Date().toISOString())} UTC. Secrets are redacted; signatures are shortened.`,
  ];
}

/** Whose deposit the ticket is: the profile asked for, else the profiles its rows are under. */
function profileText(profile: string | undefined, entries: readonly ExchangeDetail[]): string {
  const names = profile !== undefined ? [profile] : [...new Set(entries.map((x) => x.profile))];
  return names.map((n) => (n === null ? 'unassigned' : code(n))).join(', ');
}

/** `profile`: whose deposit (a deposit id under two profiles is two deposits); absent: every row naming it. */
export async function ticketBundle(ctx: StoreAndSecrets & { log: ExchangeReader }, depositId: string, profile?: string): Promise<string> {
  if (typeof depositId !== 'string' || depositId === '') throw new DeskFailure('bad-input', 'A depositId is required.');
  const timeline = await ctx.log.timeline(depositId, profile);
  const ids = timeline.entries.map((s) => s.id);
  const entries = toDetails(ids, await ctx.log.detailRows(ids));
  if (entries.length === 0) {
    const others = profile === undefined ? [] : await depositOwners(ctx.log, depositId, profile);
    const under = profile === undefined ? '' : ` under profile "${profile}"`;
    throw new DeskFailure('not-found', `No exchanges for deposit ${depositId}${under}${others.length > 0 ? `; ${ownersHint(others)}` : ''}.`);
  }
  const secrets = storedSecrets(ctx);
  const out: string[] = [`## Deposit ${code(depositId)}`, '', `- Profile: ${profileText(profile, entries)}`, ...summaryLines(entries), ''];

  out.push('### Timeline', '', '| # | Time (UTC) | Who | Kind / result | Status | Signature | Findings |', '|---|---|---|---|---|---|---|');
  for (const x of entries) {
    const errors = x.findings.filter((f) => f.level === 'error').length;
    const found = x.findings.length === 0 ? '–' : `${x.findings.length}${errors ? ` (${errors} error${errors === 1 ? '' : 's'})` : ''}`;
    out.push(`| ${x.id} | ${time(x.at)} | ${escapeText(who(x))} | ${escapeText(what(x))} | ${escapeText(status(x))} | ${signatureCell(x)} | ${found} |`);
  }

  out.push('', '### What looks wrong', '');
  const deskAnswers = entries.filter((x) => deskAnswered(x));
  if (timeline.flags.length === 0 && deskAnswers.length === 0)
    out.push(
      'Nothing unusual: no repeated or conflicting callbacks, no amount that differs from the pay, no badly signed callback accepted, no answer made by the desk.',
    );
  for (const f of timeline.flags) out.push(`- **${f.flag}**: ${escapeText(f.message)} (${f.exchangeIds.map((id) => `#${id}`).join(', ')})`);
  for (const x of deskAnswers) out.push(`- **desk-answered**: #${x.id}: ${escapeText(deskAnswerText(x)!)}`);

  out.push('', '### Signatures', '');
  for (const x of entries) {
    if (x.signature.verdict === null) continue;
    const parts = [`- #${x.id} ${escapeText(what(x))}: **${x.signature.verdict}**: ${verdictWords(x.signature.verdict, x.signature.diagnosis)}.`];
    const accepted = acceptedBadSignature(x);
    if (accepted) parts.push(`**The operator accepted it (${x.response!.status}).**`);
    const diagnosis = diagnosisSummaryShown(x.signature.verdict, x.signature.diagnosis);
    if (diagnosis) parts.push(escapeText(diagnosis));
    parts.push(...signatureNotesShown(x.signature.notes, x.signature.verdict, x.signature.diagnosis, null).map(escapeText));
    out.push(parts.join(' '));
  }

  out.push('', '### Findings', '');
  const withFindings = entries.filter((x) => x.findings.length > 0);
  if (withFindings.length === 0) out.push('None: every body matches the interface.');
  for (const x of withFindings) {
    for (const f of x.findings) out.push(`- #${x.id} ${escapeText(what(x))}: ${f.level} at ${code(f.path)}: ${escapeText(f.message)}`);
  }

  out.push('', '### Requests');
  for (const x of entries) {
    const query = x.request.query ? `?${x.request.query}` : '';
    out.push('', `#### #${x.id} ${escapeText(x.request.method)} ${escapeText(x.target ?? `${x.request.path}${query}`)} (${escapeText(what(x))})`, '');
    out.push(fence(ticketHeaders(x.request.headers, secrets), 'http'), '', bodyBlock(x.request.bodyBase64), '');
    if (x.response) out.push(`Response ${deskAnswered(x) ? escapeText(status(x)) : x.response.status}:`, '', bodyBlock(x.response.bodyBase64));
    else out.push(`Response: ${escapeText(status(x))}`);
  }
  return `${out.join('\n')}\n`;
}
