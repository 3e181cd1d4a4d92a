import type { DeskApi } from '../../shared/desk-api';
import { attempt } from '../result';
import type { DeskContext } from './context';

export function profilesPart(ctx: DeskContext): Pick<DeskApi, 'listProfiles' | 'saveProfile' | 'duplicateProfile' | 'useProfile' | 'removeProfile'> {
  const { profiles } = ctx.store;
  // Every change may alter the secrets used for verification; drop the cache, then tell the UI.
  const changed = <T>(value: T): T => {
    ctx.invalidateSecrets();
    return value;
  };
  return {
    listProfiles: () => attempt(() => profiles.list()),
    saveProfile: (input) => attempt(() => changed(profiles.save(input))),
    duplicateProfile: (name, newName) => attempt(() => changed(profiles.duplicate(name, newName))),
    useProfile: (name) => attempt(() => changed(profiles.use(name))),
    removeProfile: (name) =>
      attempt(() => {
        profiles.remove(name);
        return changed(null);
      }),
  };
}
