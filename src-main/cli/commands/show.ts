import type { Command } from 'commander';
import type { ExchangeDetail, HeaderList, ProfileView, Timeline } from '../../shared/model';
import { formatMoney, writesMinorUnits } from '../../shared/money';
import { faultNoteOf, isFaultNote } from '../../shared/answered-by';
import { acceptedBadSignature, acceptedBadSignatureText } from '../../shared/exchange-warnings';
import { must, withDesk } from '../context';
import { printJson } from '../io';
import { UsageError } from '../errors';
import { exchangeId, httpUrl } from '../parse';
import { diagnosisSummaryShown, signatureNotesShown, verdictWords } from '../../shared/verdict-words';

const strict = new TextDecoder('utf-8', { fatal: true });

/** The body as text when it is UTF-8, else a note and base64: a terminal is no place for raw bytes. */
function bodyText(base64: string): string {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) return '(empty body)';
  try {
    return strict.decode(bytes);
  } catch {
    return `(${bytes.length} bytes, not valid UTF-8; base64) ${base64}`;
  }
}

function headers(list: HeaderList): string {
  return list.map(([k, v]) => `  ${k}: ${v}`).join('\n');
}

/** The answer's first line: its status and who made it (the desk says so, and why). */
function responseLine(x: ExchangeDetail): string {
  const took = x.durationMs !== null ? ` in ${x.durationMs.toFixed(1)} ms` : '';
  if (x.answeredBy === 'desk') {
    const what = x.response ? `${x.response.status} made by the desk, not the operator` : 'none, withheld by the desk';
    return `response: ${what}${took}: ${x.deskCause ?? 'no cause recorded'}`;
  }
  // What the desk sent out was answered by its target (an operator, a token endpoint): the status says enough.
  if (x.response) return `response: ${x.response.status}${x.direction === 'inbound' ? ' from the operator' : ''}${took}`;
  return `response: none${x.error ? ` (${x.error})` : ''}`;
}

/** What looks wrong in the deposit this exchange belongs to, as the detail's warnings list it. */
function depositLines(depositId: string, flags: Timeline['flags'], id: number): string[] {
  if (flags.length === 0) return [`deposit ${depositId}: nothing unusual`];
  const out = [`deposit ${depositId}: ${flags.length === 1 ? '1 anomaly' : `${flags.length} anomalies`}`];
  for (const f of flags) out.push(`  ⚑ ${f.flag}: ${f.message} (${f.exchangeIds.map((e) => (e === id ? `#${e} this one` : `#${e}`)).join(', ')})`);
  return out;
}

/**
 * The exchange's address in the UI: the web UI's (the address `serve` printed, without its token) when
 * one is given, else the route alone, which opens it appended to any desk page's address.
 */
export function exchangeLink(id: number, uiUrl: string | undefined): string {
  const route = `#/exchange/${id}`;
  if (!uiUrl) return route;
  const url = new URL(uiUrl);
  return `${url.origin}${url.pathname}${route}`;
}

/**
 * `own`: the capture's profile as it is now: whether it has a signing secret (a no-secret capture then
 * says it was recorded before) and how it writes amounts.
 */
function render(x: ExchangeDetail, deposit: Timeline | null, link: string, own: Pick<ProfileView, 'secret' | 'amounts'> | undefined): string {
  const hasSecretNow = own ? own.secret.set : null;
  const out: string[] = [];
  out.push(`exchange ${x.id}  ${x.direction} ${x.kind}${x.result ? ` ${x.result}` : ''}  origin ${x.origin}  at ${x.at}`);
  out.push(`link: ${link}`);
  // Whose it is: the profile whose secrets judged it, and the one to name (--profile) to act on it.
  out.push(`profile: ${x.profile ?? "none (unassigned: under no profile's callback prefix)"}`);
  // As the UI's detail writes it, so that the same capture reads the same amount in both.
  if (x.amount !== null) out.push(`amount: ${formatMoney(x.amount, x.currency, writesMinorUnits(own?.amounts), 'detail')}`);
  if (x.sourceId !== null) out.push(`derived from ${x.sourceId}`);
  if (x.derivedIds.length > 0) out.push(`derived: ${x.derivedIds.join(', ')}`);
  out.push('', `${x.request.method} ${x.target ?? x.request.path}${x.target === null && x.request.query ? `?${x.request.query}` : ''}`);
  out.push(headers(x.request.headers), '', bodyText(x.request.bodyBase64));
  if (x.request.truncated) out.push(`(truncated: ${x.request.size} bytes received)`);
  const verdict = x.signature.verdict;
  out.push('', `signature: ${verdict === null ? 'not applicable' : `${verdict}: ${verdictWords(verdict, x.signature.diagnosis)}`}`);
  for (const n of signatureNotesShown(x.signature.notes, verdict, x.signature.diagnosis, hasSecretNow)) out.push(`  note: ${n}`);
  const diagnosis = diagnosisSummaryShown(verdict, x.signature.diagnosis);
  if (diagnosis) out.push(`  diagnosis: ${diagnosis}`);
  const accepted = acceptedBadSignature(x);
  if (accepted) out.push(`  ⚑ accepted-bad-signature: ${acceptedBadSignatureText(accepted)} (answered ${x.response!.status}); it must refuse it`);
  // A fault's note is about the answer, not the message: it is printed with the response.
  const findings = x.findings.filter((f) => !isFaultNote(f));
  if (findings.length > 0) {
    out.push('', 'findings:');
    for (const f of findings) out.push(`  ${f.level.padEnd(7)} ${f.path}  ${f.message}`);
  }
  if (x.depositId !== null && deposit !== null) out.push('', ...depositLines(x.depositId, deposit.flags, x.id));
  out.push('', responseLine(x));
  const fault = faultNoteOf(x.findings);
  if (fault) out.push(`  ${fault}`);
  if (x.response) out.push(headers(x.response.headers), '', bodyText(x.response.bodyBase64));
  return out.join('\n');
}

function uiFromEnv(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return httpUrl(value);
  } catch {
    throw new UsageError(`WAGER_DESK_UI is "${value}": expected the web UI's http address`);
  }
}

export function registerShow(program: Command): void {
  program
    .command('show')
    .description('one exchange, whole')
    .argument('<id>', 'exchange id', exchangeId)
    .option('--json', 'machine-readable output')
    .option('--ui <url>', "the web UI's address, for the link (default: $WAGER_DESK_UI; none: the route alone)", httpUrl)
    .action(async (id: number, _opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      const ui = (opts.ui as string | undefined) ?? uiFromEnv(process.env.WAGER_DESK_UI);
      await withDesk(opts, async (desk) => {
        const x = must(await desk.getExchange(id));
        // A deposit id is the profile's: the anomalies are those of this capture's own profile.
        const deposit = x.depositId === null ? null : must(await desk.getTimeline(x.depositId, x.profile ?? undefined));
        if (opts.json) printJson(deposit === null ? x : { ...x, depositFlags: deposit.flags });
        else {
          const profiles = await desk.listProfiles();
          const own = profiles.ok ? profiles.value.find((p) => (x.profile ? p.name === x.profile : p.active)) : undefined;
          process.stdout.write(`${render(x, deposit, exchangeLink(x.id, ui), own)}\n`);
        }
      });
    });
}
