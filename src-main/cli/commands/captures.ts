import type { Command } from 'commander';
import type { ExchangeQuery, ExchangeSummary } from '../../shared/model';
import { must, withDesk } from '../context';
import { printJson } from '../io';
import { addExchangeFilters, exchangeFilterQuery } from '../filters';
import { listLimit, MAX_LIST_ROWS } from '../parse';

function line(x: ExchangeSummary): string {
  const what = x.kind === 'results' && x.result ? `results:${x.result}` : x.kind;
  const status = x.response ? String(x.response.status) : x.error ? 'error' : '-';
  const money = x.amount !== null ? `${x.amount}${x.currency ? ` ${x.currency}` : ''}` : '';
  return [String(x.id).padStart(6), x.at, x.direction.padEnd(8), what.padEnd(16), (x.signature.verdict ?? '-').padEnd(9), status.padEnd(5), x.depositId ?? '-', x.userId ?? '-', money]
    .join('  ')
    .trimEnd();
}

export function registerCaptures(program: Command): void {
  addExchangeFilters(program.command('captures').description('list captured callbacks, newest first'))
    .option('--limit <n>', `at most N rows (default 100, at most ${MAX_LIST_ROWS})`, listLimit)
    .option('--json', 'machine-readable output')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      const query: ExchangeQuery = { ...exchangeFilterQuery(opts), limit: opts.limit ?? 100 };
      await withDesk(opts, async (desk) => {
        const page = must(await desk.listExchanges(query));
        if (opts.json) return printJson(page.items);
        if (page.items.length === 0) {
          process.stdout.write('no captures yet: start the proxy with `wager-desk serve` and point the platform (or curl) at it\n');
          return;
        }
        process.stdout.write(`${['    id', 'at'.padEnd(24), 'dir     ', 'kind            ', 'verdict  ', 'status', 'depositId', 'userId', 'amount'].join('  ')}\n`);
        for (const x of page.items) process.stdout.write(`${line(x)}\n`);
        if (page.nextBeforeId !== null) process.stdout.write(query.limit! < MAX_LIST_ROWS ? `… more: raise --limit\n` : `… more: narrow the filters\n`);
      });
    });
}
