import type { Command } from 'commander';
import { must, withDesk } from '../context';
import { NegativeAnswer } from '../errors';
import { printJson } from '../io';

export function registerBalance(program: Command): void {
  program
    .command('balance')
    .description("read a user's balance once through the profile's balance probe; exit 0 with a reading, 1 without")
    .requiredOption('--user-id <id>', 'the user whose balance to read')
    .option('--profile <name>', 'the profile whose probe to use (default: the active profile)')
    .option('--json', 'machine-readable output')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      await withDesk(opts, async (desk) => {
        const read = must(await desk.readBalance(opts.userId, opts.profile));
        if (opts.json) printJson(read);
        else if (read.evidence.kind === 'reading') {
          process.stdout.write(
            `${read.evidence.value}  (${read.amounts === 'integer' ? 'minor units' : 'decimal'}; user ${read.userId}, profile ${read.profile})\n`,
          );
        } else process.stdout.write(`unavailable: ${read.evidence.reason}\n`);
        if (read.evidence.kind !== 'reading') throw new NegativeAnswer();
      });
    });
}
