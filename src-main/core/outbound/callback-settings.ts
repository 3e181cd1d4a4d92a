// Where a profile's operator mounts the callbacks and how it writes amounts, with a run's own choice
// (the CLI's --callback-prefix and --amounts) winning over the profile's.
import type { AmountsMode } from '../../shared/model';
import { AMOUNTS_MODES } from '../../shared/model';
import { DEFAULT_AMOUNTS } from '../protocol/amounts';
import { callbackPrefixProblem, DEFAULT_CALLBACK_PREFIX } from '../protocol/callback-path';
import { DeskFailure } from '../result';

export interface CallbackSettings {
  prefix: string;
  amounts: AmountsMode;
}

export function callbackSettings(
  profile: { callbackPrefix: string; amounts: AmountsMode } | null,
  options: { callbackPrefix?: string | undefined; amounts?: AmountsMode | undefined } = {},
): CallbackSettings {
  const prefix = options.callbackPrefix ?? profile?.callbackPrefix ?? DEFAULT_CALLBACK_PREFIX;
  const problem = callbackPrefixProblem(prefix);
  if (problem !== null) throw new DeskFailure('bad-input', `${problem[0]!.toUpperCase()}${problem.slice(1)}.`);
  const amounts = options.amounts ?? profile?.amounts ?? DEFAULT_AMOUNTS;
  if (!AMOUNTS_MODES.includes(amounts)) throw new DeskFailure('bad-input', `Amounts are ${AMOUNTS_MODES.join(' or ')}, not "${String(amounts)}".`);
  return { prefix, amounts };
}
