import type { SliceCreator } from './types';

/** The screens of the app; each has one entry in features/registry.ts, which the navigation shows in order. */
export type ViewId = 'captures' | 'timeline' | 'composer' | 'edge-cases' | 'checks' | 'tokens' | 'profiles' | 'sandbox';

/**
 * Screens whose detail pane shows only the exchanges they sent: a capture left open from the list would
 * sit there, half the width, about something unrelated.
 */
const OWN_DETAIL: ReadonlySet<ViewId> = new Set(['edge-cases', 'checks']);

export interface NavigationSlice {
  view: ViewId;
  setView(view: ViewId): void;
}

export const createNavigationSlice: SliceCreator<NavigationSlice> = (set, get) => ({
  view: 'captures',
  setView: (view) => {
    if (OWN_DETAIL.has(view) && view !== get().view && get().openId !== null) get().closeExchange();
    set({ view });
  },
});
