import { create } from 'zustand';
import { createCapturesSlice } from './captures-slice';
import { createConnectionSlice } from './connection-slice';
import { createDetailSlice } from './detail-slice';
import { createNavigationSlice } from './navigation-slice';
import { createStatusSlice } from './status-slice';
import { createTimelineSlice } from './timeline-slice';
import type { DeskState } from './types';

export type { DeskState } from './types';
export { NO_FILTERS, filtersActive, type CaptureFilters } from './captures-slice';
export type { ViewId } from './navigation-slice';

export const useDesk = create<DeskState>()((...a) => ({
  ...createStatusSlice(...a),
  ...createCapturesSlice(...a),
  ...createDetailSlice(...a),
  ...createTimelineSlice(...a),
  ...createNavigationSlice(...a),
  ...createConnectionSlice(...a),
}));
