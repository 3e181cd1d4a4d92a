import type { DeskApi } from '../../shared/desk-api';
import { attempt } from './attempt';
import { sealsSecret } from '../store/contract/profiles';
import type { DeskContext } from './context';
import type { TeamProfiles } from './team-profiles';

/** `team`: the team's profiles, when the desk is on a team's database (team-profiles.ts); null: the data directory's. */
export function profilesPart(
  ctx: DeskContext,
  team: TeamProfiles | null,
): Pick<DeskApi, 'listProfiles' | 'saveProfile' | 'duplicateProfile' | 'useProfile' | 'removeProfile'> {
  const { profiles } = ctx.store;
  // Every change may alter the secrets used for verification; drop the cache, then tell the UI.
  const changed = <T>(value: T): T => {
    ctx.invalidateSecrets();
    return value;
  };
  /** A change of the named profiles: on a team's database, written there too. */
  const change = <T>(names: readonly string[], fn: () => T, seals = false): Promise<T> | T => (team ? team.change(names, fn, seals) : fn());
  return {
    listProfiles: () => attempt(() => profiles.list()),
    saveProfile: (input) => attempt(async () => changed(await change([input.name], () => profiles.save(input), sealsSecret(input)))),
    duplicateProfile: (name, newName) => attempt(async () => changed(await change([newName], () => profiles.duplicate(name, newName)))),
    // Which profile is active is each desk's own choice, never the team's.
    useProfile: (name) => attempt(() => changed(profiles.use(name))),
    removeProfile: (name) =>
      attempt(async () => {
        await change([name], () => profiles.remove(name));
        return changed(null);
      }),
  };
}
