import type { SliceCreator } from './types';

/**
 * The screens of the app. Issue 7's screens (composer, checks, tokens, profiles, sandbox) join this
 * list and the registry in features/registry.tsx; nothing else changes.
 */
export type ViewId = 'captures' | 'timeline';

export interface NavigationSlice {
  view: ViewId;
  setView(view: ViewId): void;
}

export const createNavigationSlice: SliceCreator<NavigationSlice> = (set) => ({
  view: 'captures',
  setView: (view) => set({ view }),
});
