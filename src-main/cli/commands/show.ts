import type { Command } from 'commander';
import type { ExchangeDetail, HeaderList } from '../../shared/model';
import { must, withDesk } from '../context';
import { printJson } from '../io';
import { exchangeId } from '../parse';
import { signatureNotesNow, verdictWords } from '../../shared/verdict-words';

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

/** `hasSecretNow`: whether the active profile has a signing secret now (a no-secret capture then says it was recorded before). */
function render(x: ExchangeDetail, hasSecretNow: boolean | null): string {
  const out: string[] = [];
  out.push(`exchange ${x.id}  ${x.direction} ${x.kind}${x.result ? ` ${x.result}` : ''}  origin ${x.origin}  at ${x.at}`);
  if (x.sourceId !== null) out.push(`derived from ${x.sourceId}`);
  if (x.derivedIds.length > 0) out.push(`derived: ${x.derivedIds.join(', ')}`);
  out.push('', `${x.request.method} ${x.target ?? x.request.path}${x.target === null && x.request.query ? `?${x.request.query}` : ''}`);
  out.push(headers(x.request.headers), '', bodyText(x.request.bodyBase64));
  if (x.request.truncated) out.push(`(truncated: ${x.request.size} bytes received)`);
  const verdict = x.signature.verdict;
  out.push('', `signature: ${verdict === null ? 'not applicable' : `${verdict}: ${verdictWords(verdict, x.signature.diagnosis)}`}`);
  for (const n of signatureNotesNow(x.signature.notes, verdict, hasSecretNow)) out.push(`  note: ${n}`);
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

export function registerShow(program: Command): void {
  program
    .command('show')
    .description('one exchange, whole')
    .argument('<id>', 'exchange id', exchangeId)
    .option('--json', 'machine-readable output')
    .action(async (id: number, _opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      await withDesk(opts, async (desk) => {
        const x = must(await desk.getExchange(id));
        if (opts.json) printJson(x);
        else {
          const profiles = x.signature.verdict === 'no-secret' ? await desk.listProfiles() : null;
          const active = profiles?.ok ? profiles.value.find((p) => p.active) : undefined;
          process.stdout.write(`${render(x, active ? active.secret.set : null)}\n`);
        }
      });
    });
}
