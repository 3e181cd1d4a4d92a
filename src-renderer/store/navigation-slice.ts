import type { SliceCreator } from './types';

/** The screens of the app; each has one entry in features/registry.ts, which the navigation shows in order. */
export type ViewId = 'captures' | 'timeline' | 'composer' | 'edge-cases' | 'checks' | 'tokens' | 'profiles' | 'sandbox';

export interface NavigationSlice {
  view: ViewId;
  setView(view: ViewId): void;
}

export const createNavigationSlice: SliceCreator<NavigationSlice> = (set) => ({
  view: 'captures',
  setView: (view) => set({ view }),
});
