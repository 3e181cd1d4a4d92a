// `wager-desk sandbox`: the books of the built-in sandbox operator (balances and deposits).
import { InvalidArgumentError, type Command } from 'commander';
import type { SandboxState } from '../../shared/model';
import { middleEllipsis } from '../../shared/middle-ellipsis';
import { must, withDesk } from '../context';
import { printJson } from '../io';
import { registerFaults } from './sandbox-faults';

function amount(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError('expected a number');
  return n;
}

/**
 * Characters of an id a line shows: a check's 1,000-character userId would fill a terminal with one
 * line. Cut in the middle (both ends tell ids apart); --json prints them whole.
 */
const ID_ROOM = 40;

function printState(state: SandboxState): void {
  let cut = false;
  const id = (value: string): string => {
    const shown = middleEllipsis(value, ID_ROOM);
    cut ||= shown !== value;
    return shown;
  };
  const out: string[] = [`starting balance: ${state.startingBalance}`];
  out.push(state.users.length === 0 ? 'users: none yet' : 'users:');
  for (const u of state.users) out.push(`  ${id(u.userId)}  ${u.balance}`);
  out.push(state.deposits.length === 0 ? 'deposits: none yet' : 'deposits:');
  for (const d of state.deposits) {
    const outcome = d.outcome ? `${d.outcome} at ${d.settledAt}` : 'open';
    out.push(`  ${id(d.depositId)}  ${id(d.userId)}  ${d.amount} ${d.currency}  paid ${d.paidAt}  ${outcome}`);
  }
  if (cut) out.push(`(ids over ${ID_ROOM} characters are cut in the middle; --json prints them whole)`);
  process.stdout.write(`${out.join('\n')}\n`);
}

export function registerSandbox(program: Command): void {
  const sandbox = program
    .command('sandbox')
    .description("show the sandbox operator's balances and deposits (subcommands change them)")
    .option('--json', 'machine-readable output')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      await withDesk(opts, async (desk) => {
        const state = must(await desk.getSandboxState());
        if (opts.json) printJson(state);
        else printState(state);
      });
    });

  sandbox
    .command('set-balance')
    .description("set one user's balance")
    .argument('<user>', 'userId')
    .argument('<amount>', 'the new balance', amount)
    .option('--json', 'machine-readable output')
    .action(async (user: string, value: number, _opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      await withDesk(opts, async (desk) => {
        const state = must(await desk.setSandboxBalance(user, value));
        if (opts.json) printJson(state);
        else process.stdout.write(`${user}: ${value}\n`);
      });
    });

  sandbox
    .command('set-starting-balance')
    .description('set the balance users start with when the sandbox first sees them (default 1000)')
    .argument('<amount>', 'the starting balance', amount)
    .action(async (value: number, _opts, cmd: Command) => {
      await withDesk(cmd.optsWithGlobals(), async (desk) => {
        must(await desk.setSandboxStartingBalance(value));
        process.stdout.write(`starting balance: ${value}\n`);
      });
    });

  sandbox
    .command('reset')
    .description('forget every balance and deposit (the starting balance stays)')
    .action(async (_opts, cmd: Command) => {
      await withDesk(cmd.optsWithGlobals(), async (desk) => {
        must(await desk.resetSandbox());
        process.stdout.write('sandbox reset: no users, no deposits\n');
      });
    });

  registerFaults(sandbox);
}
