import type { DeskError, ProfileInput, ProfileView, Result } from '../../src-main/shared/model';
import { desk } from '../api';
import type { SliceCreator } from './types';

export interface ProfilesSlice {
  /** Profile views: never a secret, only whether one is set and its fingerprint. */
  profiles: ProfileView[];
  profilesLoaded: boolean;
  profilesError: DeskError | null;
  loadProfiles(): Promise<void>;
  /** Each change reloads the list and the status bar (which names the active profile). */
  saveProfile(input: ProfileInput): Promise<ProfileView | null>;
  duplicateProfile(name: string, newName: string): Promise<ProfileView | null>;
  switchProfile(name: string): Promise<boolean>;
  removeProfile(name: string): Promise<boolean>;
  clearProfilesError(): void;
}

let request = 0;

export const createProfilesSlice: SliceCreator<ProfilesSlice> = (set, get) => {
  const changed = async (): Promise<void> => {
    await Promise.all([get().loadProfiles(), get().refreshStatus()]);
  };
  /** One change: clears the last error, keeps the new one, and reloads after a success (or always). */
  const act = async <T>(call: () => Promise<Result<T>>, reloadAlways: boolean): Promise<Result<T>> => {
    set({ profilesError: null });
    const r = await call();
    if (!r.ok) set({ profilesError: r.error });
    if (r.ok || reloadAlways) await changed();
    return r;
  };
  return {
    profiles: [],
    profilesLoaded: false,
    profilesError: null,

    async loadProfiles() {
      const mine = ++request;
      const r = await desk.listProfiles();
      if (mine !== request) return;
      set(r.ok ? { profiles: r.value, profilesLoaded: true, profilesError: null } : { profilesError: r.error, profilesLoaded: true });
    },

    async saveProfile(input) {
      const r = await act(() => desk.saveProfile(input), false);
      return r.ok ? r.value : null;
    },

    async duplicateProfile(name, newName) {
      const r = await act(() => desk.duplicateProfile(name, newName), false);
      return r.ok ? r.value : null;
    },

    // A failed switch or removal is usually about a profile changed elsewhere (removed by the CLI, say):
    // the list reloads either way, so it shows what is there now.
    switchProfile: async (name) => (await act(() => desk.useProfile(name), true)).ok,

    removeProfile: async (name) => (await act(() => desk.removeProfile(name), true)).ok,

    clearProfilesError: () => set({ profilesError: null }),
  };
};
