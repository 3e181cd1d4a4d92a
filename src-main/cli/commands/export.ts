// `export --har FILE [filters]` (design/CLI.md), plus two additions for tickets: `export --ticket
// DEPOSIT` (Markdown) and `export --curl ID` (a cURL command). Secrets are redacted in all three.
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { MAX_HAR_EXCHANGES } from '../../core/desk/shell-kit';
import type { HarQuery } from '../../shared/model';
import { must, withDesk } from '../context';
import { UsageError } from '../errors';
import { printJson } from '../io';
import { addExchangeFilters, addSearchFilter, exchangeFilterQuery, oneScope } from '../filters';
import { exchangeId, positiveInt } from '../parse';

function writeOut(file: string, text: string): void {
  if (file === '-') {
    process.stdout.write(text);
    return;
  }
  try {
    writeFileSync(file, text);
  } catch (err) {
    throw new UsageError(`cannot write ${file}: ${(err as Error).message}`);
  }
}

function harQuery(opts: Record<string, unknown>): HarQuery {
  // A deposit's story includes the desk's replays of it: every direction unless narrowed.
  return {
    ...exchangeFilterQuery(opts, opts.deposit !== undefined ? 'all' : 'inbound'),
    ...(opts.report !== undefined ? { reportId: Number(opts.report) } : {}),
  };
}

export function registerExport(program: Command): void {
  addSearchFilter(
    addExchangeFilters(
      program
        .command('export')
        .description('export exchanges as HAR 1.2 (or one deposit as a Markdown ticket, or one exchange as cURL)')
        .option('--har <file>', 'write a HAR file (- for stdout)'),
      "only this deposit's timeline (its replays included)",
    ),
  )
    .option('--max <n>', `with --har: at most N exchanges, the newest (default ${MAX_HAR_EXCHANGES})`, positiveInt)
    .option('--report <id>', 'only the exchanges of this conformance report', positiveInt)
    .option('--ticket <depositId>', "print one deposit's story as Markdown, secrets redacted")
    .option('--curl <id>', 'print a cURL command that sends this exchange again, byte for byte', exchangeId)
    .option('--out <file>', 'with --ticket or --curl: write to this file instead of stdout')
    .option('--json', 'machine-readable summary')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      const modes = ['har', 'ticket', 'curl'].filter((m) => opts[m] !== undefined);
      if (modes.length !== 1) throw new UsageError('export needs exactly one of --har FILE, --ticket DEPOSIT or --curl ID');
      const contradiction = oneScope(opts);
      if (contradiction) throw new UsageError(contradiction);
      // An option that does not apply to the mode is refused rather than silently ignored.
      if (opts.har !== undefined && opts.out !== undefined) throw new UsageError('--out goes with --ticket or --curl; --har names its own file');
      if (opts.har === undefined && opts.max !== undefined) throw new UsageError('--max is the cap of --har; --ticket and --curl export one thing');
      if (opts.har === undefined && opts.json) throw new UsageError('--json is the summary of --har; --ticket and --curl print the text itself');
      await withDesk(opts, async (desk) => {
        if (opts.ticket !== undefined || opts.curl !== undefined) {
          const ticket = async (depositId: string): Promise<string> =>
            must(await desk.ticketBundle(depositId, ...(opts.profile !== undefined ? [String(opts.profile)] : [])));
          const text = opts.ticket !== undefined ? await ticket(String(opts.ticket)) : `${must(await desk.curlFor(opts.curl))}\n`;
          writeOut(opts.out ?? '-', text);
          return;
        }
        const file = String(opts.har);
        const max = (opts.max as number | undefined) ?? MAX_HAR_EXCHANGES;
        const text = must(await desk.exportHar({ ...harQuery(opts), ...(opts.max !== undefined ? { limit: max } : {}) }));
        writeOut(file, text);
        const entries = (JSON.parse(text) as { log: { entries: unknown[] } }).log.entries.length;
        // An export stops at the cap (the HAR's comment says so): the summary says it too.
        const capped = entries >= max;
        const why =
          opts.max !== undefined ? 'as --max asks: raise it or narrow the filter for older ones' : 'the most one file holds: narrow the filter for older ones';
        const note = capped ? ` (the newest ${max}, ${why})` : '';
        // With the HAR itself on stdout, the summary goes to stderr so that stdout stays one document.
        if (file === '-') process.stderr.write(`exported ${entries} exchanges${note}\n`);
        else if (opts.json) printJson({ file, entries, ...(capped ? { capped: true } : {}) });
        else process.stdout.write(`exported ${entries} exchanges to ${file}${note}\n`);
      });
    });
}
