import type { Command } from 'commander';
import type { ExchangeQuery, Verdict } from '../shared/model';
import { searchProblem } from '../shared/search-text';
import { UsageError } from './errors';
import { verdict } from './parse';

/**
 * The exchange filters `captures`, `tail`, `export` and `reverify` share (design/CLI.md: "[filters]").
 * Each acts on one profile's exchanges (the active one unless --profile); `spanning` adds --all-profiles
 * where spanning makes sense (listing, tail, export).
 */
export function addExchangeFilters(cmd: Command, depositHelp = 'only this depositId', spanning = true): Command {
  cmd
    .option('--all', 'include outbound exchanges (replays, sends, checks, tokens)')
    .option('--deposit <id>', depositHelp)
    .option('--user <id>', 'only this userId')
    .option('--verdict <verdict>', 'only this signature verdict', verdict)
    .option('--profile <name>', "only this profile's exchanges (default: the active profile's)");
  return spanning ? cmd.option('--all-profiles', "every profile's exchanges, unassigned ones too") : cmd;
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
  // Checked here rather than by a commander parser, whose message would quote the whole text.
  const problem = opts.search === undefined ? null : searchProblem(String(opts.search));
  if (problem) throw new UsageError(`--search: ${problem}`);
  return {
    direction: opts.all ? 'all' : direction,
    ...(opts.deposit !== undefined ? { depositId: String(opts.deposit) } : {}),
    ...(opts.user !== undefined ? { userId: String(opts.user) } : {}),
    ...(opts.verdict !== undefined ? { verdict: opts.verdict as Verdict } : {}),
    ...(opts.profile !== undefined ? { profile: String(opts.profile) } : {}),
    ...(opts.allProfiles ? { allProfiles: true } : {}),
    ...(opts.search !== undefined && String(opts.search) !== '' ? { search: String(opts.search) } : {}),
  };
}

/** A usage error when a command is told both to keep to one profile and to span them all. */
export function oneScope(opts: Record<string, unknown>): string | null {
  return opts.profile !== undefined && opts.allProfiles ? '--profile and --all-profiles contradict each other: choose one' : null;
}
