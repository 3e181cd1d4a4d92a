// `import --har FILE [--profile P]` (design/CLI.md): every entry becomes an inbound capture, verified
// with the profile's secret. A malformed file is refused whole (exit 2), naming the entry and field.
import { basename } from 'node:path';
import type { Command } from 'commander';
import { must, withDesk } from '../context';
import { UsageError } from '../errors';
import { printJson, readBody } from '../io';
import { callbackPrefix } from '../callback-options';

export function registerImport(program: Command): void {
  program
    .command('import')
    .description('import a HAR file (Chromium, HTTP Toolkit, mitmproxy, ...) as inbound captures')
    .option('--har <file>', 'the HAR file (- for stdin)')
    .option('--profile <name>', "verify signatures with this profile's secret (default: the active profile)")
    .option('--callback-prefix <path>', "judge entries at <path>/pay and <path>/results as the callbacks (default: the profile's prefix)", callbackPrefix)
    .option('--json', 'machine-readable output')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      if (opts.har === undefined) throw new UsageError('import needs --har FILE');
      const file = String(opts.har);
      const text = (await readBody(file)).toString('utf8');
      await withDesk(opts, async (desk) => {
        const result = must(
          await desk.importHar(text, {
            ...(opts.profile !== undefined ? { profile: opts.profile } : {}),
            ...(opts.callbackPrefix !== undefined ? { callbackPrefix: opts.callbackPrefix } : {}),
            ...(file !== '-' ? { origin: basename(file) } : {}),
          }),
        );
        const verdicts: Record<string, number> = {};
        for (const id of result.ids) {
          const found = await desk.getExchange(id);
          const verdict = (found.ok ? found.value.signature.verdict : null) ?? 'not signed';
          verdicts[verdict] = (verdicts[verdict] ?? 0) + 1;
        }
        if (opts.json) return printJson({ ...result, verdicts });
        const counts = Object.entries(verdicts)
          .map(([v, n]) => `${v} ${n}`)
          .join(', ');
        process.stdout.write(`imported ${result.imported} exchanges from ${file === '-' ? 'stdin' : file}${counts ? ` (${counts})` : ''}\n`);
      });
    });
}
