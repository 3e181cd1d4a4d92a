import type { DeskApi } from '../../shared/desk-api';
import { DeskFailure } from '../result';
import { attempt } from './attempt';
import type { DeskContext } from './context';

export function balancePart(ctx: DeskContext): Pick<DeskApi, 'readBalance'> {
  return {
    readBalance: (userId, profileName) =>
      attempt(async () => {
        if (typeof userId !== 'string' || userId === '') throw new DeskFailure('bad-input', 'Give the user whose balance to read.');
        const profile = ctx.profile(profileName);
        if (profile === null)
          throw new DeskFailure('bad-input', 'No profile: create one and set its balance probe (profile set NAME --balance-url URL --balance-path PATH).');
        const observer = ctx.balanceObserver(profile.name);
        return { profile: profile.name, userId, amounts: profile.amounts, evidence: await observer.read(userId) };
      }),
  };
}
