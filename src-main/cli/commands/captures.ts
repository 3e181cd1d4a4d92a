import type { Command } from 'commander';
import type { ExchangeQuery, ExchangeSummary, ProfileView } from '../../shared/model';
import type { Desk } from '../../core/desk';
import { must, withDesk } from '../context';
import { UsageError } from '../errors';
import { writeStdout } from '../io';
import { amountsOfProfiles, exchangeTable, type ExchangeTable } from '../exchange-table';
import { NO_CAPTURE_MATCHES } from '../../shared/list-words';
import { addExchangeFilters, addSearchFilter, exchangeFilterQuery, oneScope } from '../filters';
import { positiveInt } from '../parse';

/** Rows read from the store at a time: the output is written page by page, so memory stays flat for any --limit. */
const PAGE = 1000;

const COLUMNS = ['id', 'at', 'direction', 'kind', 'verdict', 'status', 'depositId', 'userId', 'amount', 'note'] as const;
/** Spanning profiles, each row says whose it is. */
const ALL_PROFILES_COLUMNS = ['id', 'at', 'profile', 'direction', 'kind', 'verdict', 'status', 'depositId', 'userId', 'amount', 'note'] as const;

type Format = 'table' | 'json' | 'ndjson';

/**
 * Pages through the store newest first (keyset: beforeId), handing each page on; whether rows remain past
 * the limit, or the seconds after which a page's read stopped at its time budget (the rows it found were handed on).
 */
async function eachPage(
  desk: Desk,
  query: ExchangeQuery,
  limit: number,
  onPage: (items: ExchangeSummary[], first: boolean) => Promise<void>,
): Promise<boolean | { stoppedAfter: number }> {
  let left = limit;
  let beforeId: number | undefined;
  let first = true;
  for (;;) {
    const page = must(await desk.listExchanges({ ...query, limit: Math.min(PAGE, left), ...(beforeId !== undefined ? { beforeId } : {}) }));
    await onPage(page.items, first);
    first = false;
    left -= page.items.length;
    if (page.stoppedAfterSeconds !== undefined) return { stoppedAfter: page.stoppedAfterSeconds };
    if (page.nextBeforeId === null) return false;
    if (left <= 0) return true;
    beforeId = page.nextBeforeId;
  }
}

/** The filters that narrow a profile's list: with one of them, an empty list is a search without hits, not an empty log. */
function narrowing(query: ExchangeQuery): string[] {
  const given: string[] = [];
  if (query.search !== undefined) given.push(`--search ${JSON.stringify(query.search)}`);
  if (query.depositId !== undefined) given.push(`--deposit ${query.depositId}`);
  if (query.userId !== undefined) given.push(`--user ${query.userId}`);
  if (query.verdict !== undefined) given.push(`--verdict ${query.verdict}`);
  return given;
}

/**
 * The empty list: with filters, that nothing matches them (and how to see the whole list); else whose
 * list it is and where each profile's callbacks go (the paths under the proxy's address).
 */
async function nothingYet(desk: Desk, query: ExchangeQuery, profiles: readonly ProfileView[]): Promise<string> {
  const whose = query.allProfiles ? '' : (query.profile ?? profiles.find((p) => p.active)?.name);
  const filters = narrowing(query);
  if (filters.length > 0)
    return `${NO_CAPTURE_MATCHES}${whose ? ` in profile ${whose}` : ''} (${filters.join(' ')}): run \`wager-desk captures\` without them for the whole list\n`;
  const head = `no captures yet${whose ? ` for profile ${whose}` : ''}: start the proxy with \`wager-desk serve\` and point the platform (or curl) at it\n`;
  const routes = profiles.map((p) => `  ${p.name}: ${p.callbackPrefix}/pay, ${p.callbackPrefix}/results\n`);
  return routes.length > 0 ? `${head}callback paths, one proxy for every profile:\n${routes.join('')}` : head;
}

export function registerCaptures(program: Command): void {
  addSearchFilter(addExchangeFilters(program.command('captures').description('list captured callbacks, newest first')))
    .option('--limit <n>', 'at most N rows (default 100; any N, streamed)', positiveInt)
    .option('--json', 'machine-readable output: one JSON array')
    .option('--ndjson', 'machine-readable output: one JSON object per line')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      if (opts.json && opts.ndjson) throw new UsageError('--json and --ndjson are two formats of one list: choose one');
      const contradiction = oneScope(opts);
      if (contradiction) throw new UsageError(contradiction);
      const format: Format = opts.ndjson ? 'ndjson' : opts.json ? 'json' : 'table';
      const limit = (opts.limit as number | undefined) ?? 100;
      const query = exchangeFilterQuery(opts);
      await withDesk(opts, async (desk) => {
        const profiles = must(await desk.listProfiles());
        let any = false;
        let table: ExchangeTable | null = null;
        const more = await eachPage(desk, query, limit, async (items, first) => {
          if (format === 'ndjson') return writeStdout(items.map((x) => `${JSON.stringify(x)}\n`).join(''));
          if (format === 'json') {
            // One array, written as it is read: "[", the items with commas between, "]".
            const text = items.map((x, i) => `${first && i === 0 ? '[\n' : ',\n'}${JSON.stringify(x)}`).join('');
            any ||= items.length > 0;
            return writeStdout(text);
          }
          if (first && items.length > 0) {
            table = exchangeTable(items, query.allProfiles ? ALL_PROFILES_COLUMNS : COLUMNS, amountsOfProfiles(profiles));
            await writeStdout(table.header);
          }
          any ||= items.length > 0;
          return writeStdout(table?.rows(items) ?? '');
        });
        // A search that ran out of time says so on stderr, where it never mixes with the JSON.
        if (typeof more === 'object')
          process.stderr.write(`stopped after ${more.stoppedAfter} s: the search ran out of time; narrow it (filters, a longer text) to see the rest\n`);
        if (format === 'json') return writeStdout(any ? '\n]\n' : '[]\n');
        if (format === 'ndjson') return;
        if (!any && typeof more !== 'object') return writeStdout(await nothingYet(desk, query, profiles));
        if (more === true) await writeStdout('… more: raise --limit\n');
      });
    });
}
