import type { Command } from 'commander';
import { must, withDesk } from '../context';
import { NegativeAnswer } from '../errors';
import { printJson } from '../io';
import { exchangeId } from '../parse';

export function registerExplainRefusal(program: Command): void {
  program
    .command('explain-refusal')
    .description(
      'why the operator refused a correctly signed callback: sends it again re-serialized the common ways, each signed over its bytes, and names the one accepted; exit 0 when one was, else 1',
    )
    .argument('<id>', 'id of the refused exchange (a forwarded capture, a send, a check step)', exchangeId)
    .option('--profile <name>', 'the profile whose secret signs the probes and whose upstream a capture went to (default: the active profile)')
    .option('--confirm-production', 'confirm sending with a profile marked production')
    .option('--json', 'machine-readable output')
    .action(async (id: number, _opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      await withDesk(opts, async (desk) => {
        const explained = must(
          await desk.explainRefusal(id, {
            ...(opts.profile ? { profile: opts.profile } : {}),
            ...(opts.confirmProduction ? { confirmedProduction: true } : {}),
          }),
        );
        if (opts.json) printJson(explained);
        else {
          process.stdout.write(`${explained.explanation}\n`);
          for (const p of explained.probes) {
            const answer = p.status !== null ? String(p.status) : `no answer (${p.error ?? 'unknown'})`;
            process.stdout.write(`  #${p.exchangeId}  ${p.accepted ? 'accepted' : 'refused '}  ${answer}  ${p.variant}: ${p.label}\n`);
          }
        }
        if (explained.finding !== 'reserialization' && explained.finding !== 'accepted-as-sent') throw new NegativeAnswer();
      });
    });
}
