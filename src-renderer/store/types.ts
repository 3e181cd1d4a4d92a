// The one zustand store, made of slices (zustand's slices pattern): each slice owns its part of the
// state and the actions that call the api module. Components read it through narrow selectors.
import type { StateCreator } from 'zustand';
import type { CapturesSlice } from './captures-slice';
import type { ConnectionSlice } from './connection-slice';
import type { DetailSlice } from './detail-slice';
import type { NavigationSlice } from './navigation-slice';
import type { StatusSlice } from './status-slice';
import type { TimelineSlice } from './timeline-slice';
import type { ChecksSlice } from './checks-slice';
import type { ComposerSlice } from './composer-slice';
import type { EdgeCasesSlice } from './edge-cases-slice';
import type { ProfilesSlice } from './profiles-slice';
import type { SandboxSlice } from './sandbox-slice';
import type { TokensSlice } from './tokens-slice';
import type { RedeliverSlice } from './redeliver-slice';

export type DeskState = StatusSlice &
  CapturesSlice &
  DetailSlice &
  TimelineSlice &
  NavigationSlice &
  ConnectionSlice &
  ComposerSlice &
  EdgeCasesSlice &
  ChecksSlice &
  TokensSlice &
  ProfilesSlice &
  SandboxSlice &
  RedeliverSlice;

export type SliceCreator<T> = StateCreator<DeskState, [], [], T>;
