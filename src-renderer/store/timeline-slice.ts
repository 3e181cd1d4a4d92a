import type { DeskError, ExchangeSummary, Timeline } from '../../src-main/shared/model';
import { desk } from '../api';
import type { SliceCreator } from './types';

export interface TimelineSlice {
  timelineDepositId: string | null;
  /** Whose deposit (a deposit id under two profiles is two deposits); null: the active profile's. */
  timelineProfile: string | null;
  timeline: Timeline | null;
  timelineLoading: boolean;
  timelineError: DeskError | null;
  /** Loads one deposit's story and switches to the timeline screen. */
  showTimeline(depositId: string, profile?: string | null): Promise<void>;
  reloadTimeline(): Promise<void>;
  /** Reloads the timeline (once) when a burst of events concerns its deposit. */
  noteExchangesForTimeline(xs: readonly ExchangeSummary[]): void;
}

let request = 0;

export const createTimelineSlice: SliceCreator<TimelineSlice> = (set, get) => ({
  timelineDepositId: null,
  timelineProfile: null,
  timeline: null,
  timelineLoading: false,
  timelineError: null,

  async showTimeline(depositId, profile = null) {
    const same = get().timeline?.depositId === depositId && get().timelineProfile === profile;
    set({ view: 'timeline', timelineDepositId: depositId, timelineProfile: profile, ...(same ? {} : { timeline: null }) });
    await get().reloadTimeline();
  },

  async reloadTimeline() {
    const depositId = get().timelineDepositId;
    if (depositId === null || depositId === '') return;
    const mine = ++request;
    set({ timelineLoading: true, timelineError: null });
    const profile = get().timelineProfile;
    const r = await desk.getTimeline(depositId, ...(profile !== null ? [profile] : []));
    if (mine !== request) return;
    set(r.ok ? { timeline: r.value, timelineLoading: false } : { timelineError: r.error, timelineLoading: false, timeline: null });
  },

  noteExchangesForTimeline(xs) {
    const { timeline, timelineDepositId } = get();
    if (timelineDepositId === null) return;
    const concerns = (x: ExchangeSummary): boolean =>
      x.depositId === timelineDepositId || (x.sourceId !== null && timeline?.entries.some((e) => e.id === x.sourceId) === true);
    if (xs.some(concerns)) void get().reloadTimeline();
  },
});
