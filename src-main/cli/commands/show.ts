import type { Command } from 'commander';
import type { ExchangeDetail, HeaderList } from '../../shared/model';
import { must, withDesk } from '../context';
import { printJson } from '../io';
import { UsageError } from '../errors';
import { exchangeId, httpUrl } from '../parse';

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

function render(x: ExchangeDetail, link: string): string {
  const out: string[] = [];
  out.push(`exchange ${x.id}  ${x.direction} ${x.kind}${x.result ? ` ${x.result}` : ''}  origin ${x.origin}  at ${x.at}`);
  out.push(`link: ${link}`);
  if (x.sourceId !== null) out.push(`derived from ${x.sourceId}`);
  if (x.derivedIds.length > 0) out.push(`derived: ${x.derivedIds.join(', ')}`);
  out.push('', `${x.request.method} ${x.target ?? x.request.path}${x.target === null && x.request.query ? `?${x.request.query}` : ''}`);
  out.push(headers(x.request.headers), '', bodyText(x.request.bodyBase64));
  if (x.request.truncated) out.push(`(truncated: ${x.request.size} bytes received)`);
  out.push('', `signature: ${x.signature.verdict ?? 'not applicable'}`);
  for (const n of x.signature.notes) out.push(`  note: ${n}`);
  if (x.signature.diagnosis) out.push(`  diagnosis: ${x.signature.diagnosis.summary}`);
  if (x.findings.length > 0) {
    out.push('', 'findings:');
    for (const f of x.findings) out.push(`  ${f.level.padEnd(7)} ${f.path}  ${f.message}`);
  }
  out.push('');
  if (x.response) {
    out.push(`response: ${x.response.status}${x.durationMs !== null ? ` in ${x.durationMs.toFixed(1)} ms` : ''}`);
    out.push(headers(x.response.headers), '', bodyText(x.response.bodyBase64));
  } else out.push(`response: none${x.error ? ` (${x.error})` : ''}`);
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
        if (opts.json) printJson(x);
        else process.stdout.write(`${render(x, exchangeLink(x.id, ui))}\n`);
      });
    });
}
