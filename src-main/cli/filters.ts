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

/** The query those flags ask for; `direction` says which exchanges when --all is not given. */
export function exchangeFilterQuery(opts: Record<string, unknown>, direction: ExchangeQuery['direction'] = 'inbound'): ExchangeQuery {
  return {
    direction: opts.all ? 'all' : direction,
    ...(opts.deposit !== undefined ? { depositId: String(opts.deposit) } : {}),
    ...(opts.user !== undefined ? { userId: String(opts.user) } : {}),
    ...(opts.verdict !== undefined ? { verdict: opts.verdict as Verdict } : {}),
  };
}
