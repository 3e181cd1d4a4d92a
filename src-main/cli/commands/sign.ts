import type { Command } from 'commander';
import { must, withDesk } from '../context';
import { readBody } from '../io';
import { signingSecret } from '../secrets';

export function registerSign(program: Command): void {
  program
    .command('sign')
    .description('print the lowercase hex HMAC-SHA256 of the bytes of FILE (or stdin)')
    .argument('[file]', 'body file, or - for stdin')
    .option('--secret-env <var>', 'environment variable that holds the signing secret')
    .option('--profile <name>', "use this profile's signing secret (default: the active profile)")
    .action(async (file: string | undefined, _opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      await withDesk(opts, async (desk) => {
        // The secret first: without one, `sign` typed at a terminal fails at once instead of waiting for stdin.
        const secret = await signingSecret(opts, desk);
        const body = await readBody(file);
        process.stdout.write(`${must(await desk.signBody(body.toString('base64'), secret))}\n`);
      });
    });
}
