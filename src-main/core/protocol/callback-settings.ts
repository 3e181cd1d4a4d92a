// Where a profile's operator mounts the callbacks, how it writes amounts and in which currency, with a run's own choice
// (the CLI's --callback-prefix and --amounts) winning over the profile's.
import type { AmountsMode } from '../../shared/model';
import { AMOUNTS_MODES } from '../../shared/model';
import { DEFAULT_CURRENCY } from '../../shared/money';
import { DEFAULT_AMOUNTS } from './amounts';
import { callbackPrefixProblem, DEFAULT_CALLBACK_PREFIX } from './callback-path';
import { DeskFailure } from '../result';

export interface CallbackSettings {
  prefix: string;
  amounts: AmountsMode;
  /** What the messages the desk makes carry: the profile's currency. */
  currency: string;
}

export function callbackSettings(
  profile: { callbackPrefix: string; amounts: AmountsMode; currency?: string } | null,
  options: { callbackPrefix?: string | undefined; amounts?: AmountsMode | undefined } = {},
): CallbackSettings {
  const prefix = options.callbackPrefix ?? profile?.callbackPrefix ?? DEFAULT_CALLBACK_PREFIX;
  const problem = callbackPrefixProblem(prefix);
  if (problem !== null) throw new DeskFailure('bad-input', `${problem[0]!.toUpperCase()}${problem.slice(1)}.`);
  const amounts = options.amounts ?? profile?.amounts ?? DEFAULT_AMOUNTS;
  if (!AMOUNTS_MODES.includes(amounts)) throw new DeskFailure('bad-input', `Amounts are ${AMOUNTS_MODES.join(' or ')}, not "${String(amounts)}".`);
  return { prefix, amounts, currency: profile?.currency ?? DEFAULT_CURRENCY };
}
