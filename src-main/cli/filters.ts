import type { Command } from 'commander';
import type { ExchangeQuery, Verdict } from '../shared/model';
import { verdict } from './parse';

/** The exchange filters `captures` and `export` share (design/CLI.md: "[filters]"). */
export function addExchangeFilters(cmd: Command, depositHelp = 'only this depositId'): Command {
  return cmd
    .option('--all', 'include outbound exchanges (replays, sends, checks, tokens)')
    .option('--deposit <id>', depositHelp)
    .option('--user <id>', 'only this userId')
    .option('--verdict <verdict>', 'only this signature verdict', verdict);
}

/** --search, for the commands that read pages of the log (captures, export): text anywhere in what was stored. */
export function addSearchFilter(cmd: Command): Command {
  return cmd.option(
    '--search <text>',
    'text anywhere in the request or answer (path, headers, bodies, any part of an id); under 3 characters: a depositId or userId prefix',
  );
}

/** The query those flags ask for; `direction` says which exchanges when --all is not given. */
export function exchangeFilterQuery(opts: Record<string, unknown>, direction: ExchangeQuery['direction'] = 'inbound'): ExchangeQuery {
  return {
    direction: opts.all ? 'all' : direction,
    ...(opts.deposit !== undefined ? { depositId: String(opts.deposit) } : {}),
    ...(opts.user !== undefined ? { userId: String(opts.user) } : {}),
    ...(opts.verdict !== undefined ? { verdict: opts.verdict as Verdict } : {}),
    ...(opts.search !== undefined && String(opts.search) !== '' ? { search: String(opts.search) } : {}),
  };
}
