// The app's screens, in the order the navigation shows them. A new screen adds its id to ViewId in
// store/navigation-slice.ts and one entry here.
import type { ComponentType } from 'react';
import type { ViewId } from '../store';
import { CapturesView } from './captures/CapturesView';
import { ChecksView } from './checks/ChecksView';
import { ComposerView } from './composer/ComposerView';
import { EdgeCasesView } from './edge-cases/EdgeCasesView';
import { ProfilesView } from './profiles/ProfilesView';
import { SandboxView } from './sandbox/SandboxView';
import { TimelineView } from './timeline/TimelineView';
import { TokensView } from './tokens/TokensView';

export interface ViewEntry {
  id: ViewId;
  label: string;
  Component: ComponentType;
}

export const VIEWS: readonly ViewEntry[] = [
  { id: 'captures', label: 'Captures', Component: CapturesView },
  { id: 'timeline', label: 'Deposit timeline', Component: TimelineView },
  { id: 'composer', label: 'Composer', Component: ComposerView },
  { id: 'edge-cases', label: 'Edge cases', Component: EdgeCasesView },
  { id: 'checks', label: 'Conformance', Component: ChecksView },
  { id: 'tokens', label: 'Tokens', Component: TokensView },
  { id: 'profiles', label: 'Profiles', Component: ProfilesView },
  { id: 'sandbox', label: 'Sandbox', Component: SandboxView },
];
