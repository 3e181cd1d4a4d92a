// The flags that say where an operator mounts its callbacks and how it writes amounts: parsers (a bad
// value is a usage error, exit 2) and the option that commands share.
import { InvalidArgumentError, type Command } from 'commander';
import { AMOUNTS_MODES, type AmountsMode } from '../shared/model';
import { callbackPrefixProblem } from '../core/desk/shell-kit';

export function callbackPrefix(value: string): string {
  const problem = callbackPrefixProblem(value);
  if (problem !== null) throw new InvalidArgumentError(problem);
  return value;
}

export function amountsMode(value: string): AmountsMode {
  if (!(AMOUNTS_MODES as readonly string[]).includes(value)) throw new InvalidArgumentError(`expected ${AMOUNTS_MODES.join(' or ')}`);
  return value as AmountsMode;
}

/** A positive number as typed (100, 1.5); whether it fits the profile's amounts is the desk's to say. */
export function positiveAmount(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || !(n > 0)) throw new InvalidArgumentError('expected a number greater than 0');
  return n;
}

/** A whole number of requests at once (2 to 50); the desk says the same of a value from elsewhere. */
export function concurrency(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 2 || n > 50) throw new InvalidArgumentError('expected a whole number from 2 to 50');
  return n;
}

export function addCallbackPrefixOption(cmd: Command): Command {
  return cmd.option(
    '--callback-prefix <path>',
    "where the operator mounts its callbacks, for this run (default: the profile's, else /platform)",
    callbackPrefix,
  );
}

/** The flag's value as an option of the desk, only when given. */
export function callbackPrefixOf(opts: { callbackPrefix?: string }): { callbackPrefix?: string } {
  return opts.callbackPrefix !== undefined ? { callbackPrefix: opts.callbackPrefix } : {};
}
