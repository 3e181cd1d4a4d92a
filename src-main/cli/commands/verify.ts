import type { Command } from 'commander';
import { must, withDesk } from '../context';
import { NegativeAnswer } from '../errors';
import { printJson, readBody } from '../io';
import { signingSecret } from '../secrets';
import { signatureNotesShown } from '../../shared/verdict-words';

export function registerVerify(program: Command): void {
  program
    .command('verify')
    .description('check a signature against the bytes of FILE (or stdin); exit 0 valid, 1 not')
    .requiredOption('--signature <hex>', 'the x-server-authorization value to check')
    .argument('[file]', 'body file, or - for stdin')
    .option('--secret-env <var>', 'environment variable that holds the signing secret')
    .option('--profile <name>', "use this profile's signing secret (default: the active profile)")
    .option('--json', 'machine-readable output')
    .action(async (file: string | undefined, _opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      await withDesk(opts, async (desk) => {
        // The secret first: without one, `verify` typed at a terminal fails at once instead of waiting for stdin.
        const secret = await signingSecret(opts, desk);
        const body = await readBody(file);
        const report = must(await desk.verifySignature(body.toString('base64'), opts.signature, secret));
        if (opts.json) printJson(report);
        else {
          process.stdout.write(`${report.verdict}\n`);
          // The verdict is one word here: the diagnosis says what it means, and a note saying the same is left out.
          for (const note of signatureNotesShown(report.notes, report.verdict, report.diagnosis, null)) process.stdout.write(`note: ${note}\n`);
          if (report.diagnosis) {
            process.stdout.write(`diagnosis: ${report.diagnosis.summary}\n`);
            if (!report.diagnosis.match) process.stdout.write(`tried: ${report.diagnosis.tried.join('; ')}\n`);
          }
        }
        if (report.verdict !== 'valid') throw new NegativeAnswer();
      });
    });
}
