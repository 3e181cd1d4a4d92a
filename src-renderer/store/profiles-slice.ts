import type { DeskError, ProfileInput, ProfileView } from '../../src-main/shared/model';
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
  return {
    profiles: [],
    profilesLoaded: false,
    profilesError: null,

    async loadProfiles() {
      const mine = ++request;
      const r = await desk.listProfiles();
      if (mine !== request) return;
      set(r.ok ? { profiles: r.value, profilesLoaded: true } : { profilesError: r.error, profilesLoaded: true });
    },

    async saveProfile(input) {
      set({ profilesError: null });
      const r = await desk.saveProfile(input);
      if (!r.ok) {
        set({ profilesError: r.error });
        return null;
      }
      await changed();
      return r.value;
    },

    async duplicateProfile(name, newName) {
      set({ profilesError: null });
      const r = await desk.duplicateProfile(name, newName);
      if (!r.ok) {
        set({ profilesError: r.error });
        return null;
      }
      await changed();
      return r.value;
    },

    async switchProfile(name) {
      set({ profilesError: null });
      const r = await desk.useProfile(name);
      if (!r.ok) set({ profilesError: r.error });
      await changed();
      return r.ok;
    },

    async removeProfile(name) {
      set({ profilesError: null });
      const r = await desk.removeProfile(name);
      if (!r.ok) set({ profilesError: r.error });
      await changed();
      return r.ok;
    },

    clearProfilesError: () => set({ profilesError: null }),
  };
};
