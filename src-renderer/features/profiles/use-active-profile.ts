import { useEffect, useRef } from 'react';
import type { ProfileView } from '../../../src-main/shared/model';
import { writesMinorUnits } from '../../../src-main/shared/money';
import { useDesk } from '../../store';

/**
 * Whether the active profile writes amounts in minor units (integer, the default): amounts are then shown
 * by their currency's exponent. A plain selector, cheap enough for every row of a list.
 */
export function useMinorUnits(): boolean {
  return useDesk((s) => writesMinorUnits(s.profiles.find((p) => p.active)?.amounts));
}

/** The same for an exchange's own profile (another profile's capture, in the all-profiles list); the active one's for an unassigned row. */
export function useMinorUnitsOf(profile: string | null): boolean {
  return useDesk((s) => writesMinorUnits(s.profiles.find((p) => (profile === null ? p.active : p.name === profile))?.amounts));
}

/**
 * The active profile's view (never its secrets): reloaded when a screen that shows it opens (the CLI
 * may have changed it meanwhile) and whenever the status names another active profile.
 */
export function useActiveProfile(): { profile: ProfileView | null; loaded: boolean } {
  const profiles = useDesk((s) => s.profiles);
  const loaded = useDesk((s) => s.profilesLoaded);
  const load = useDesk((s) => s.loadProfiles);
  const activeName = useDesk((s) => s.status?.activeProfile ?? null);
  const seen = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (seen.current === activeName) return;
    seen.current = activeName;
    void load();
  }, [activeName, load]);
  return { profile: profiles.find((p) => p.active) ?? null, loaded };
}
