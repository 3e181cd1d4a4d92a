import { create } from 'zustand';
import { createCapturesSlice } from './captures-slice';
import { createConnectionSlice } from './connection-slice';
import { createDetailSlice } from './detail-slice';
import { createNavigationSlice } from './navigation-slice';
import { createStatusSlice } from './status-slice';
import { createTimelineSlice } from './timeline-slice';
import { createChecksSlice } from './checks-slice';
import { createComposerSlice } from './composer-slice';
import { createEdgeCasesSlice } from './edge-cases-slice';
import { createProfilesSlice } from './profiles-slice';
import { createSandboxSlice } from './sandbox-slice';
import { createTokensSlice } from './tokens-slice';
import { createRedeliverSlice } from './redeliver-slice';
import type { DeskState } from './types';

export type { DeskState } from './types';
export { NO_FILTERS, filtersActive, type CaptureFilters } from './captures-slice';
export type { ViewId } from './navigation-slice';
export type { SendOutcome } from './outcome';
export { typedTargetOf, type ComposerOrigin, type TargetChoice } from './composer-slice';
export type { RecentTokenUser } from './tokens-slice';

export const useDesk = create<DeskState>()((...a) => ({
  ...createStatusSlice(...a),
  ...createCapturesSlice(...a),
  ...createDetailSlice(...a),
  ...createTimelineSlice(...a),
  ...createNavigationSlice(...a),
  ...createConnectionSlice(...a),
  ...createComposerSlice(...a),
  ...createEdgeCasesSlice(...a),
  ...createChecksSlice(...a),
  ...createTokensSlice(...a),
  ...createProfilesSlice(...a),
  ...createSandboxSlice(...a),
  ...createRedeliverSlice(...a),
}));
