// The app's screens, in the order the navigation shows them. A new feature (issue 7: composer, checks,
// tokens, profiles, sandbox) adds its id to ViewId in store/navigation-slice.ts and one entry here.
import type { ComponentType } from 'react';
import type { ViewId } from '../store';
import { CapturesView } from './captures/CapturesView';
import { TimelineView } from './timeline/TimelineView';

export interface ViewEntry {
  id: ViewId;
  label: string;
  Component: ComponentType;
}

export const VIEWS: readonly ViewEntry[] = [
  { id: 'captures', label: 'Captures', Component: CapturesView },
  { id: 'timeline', label: 'Deposit timeline', Component: TimelineView },
];
