import type { DeskError, ExchangeDetail, ExchangeSummary } from '../../src-main/shared/model';
import { desk } from '../api';
import type { SliceCreator } from './types';

export interface DetailSlice {
  /** The exchange shown in the detail pane. */
  openId: number | null;
  detail: ExchangeDetail | null;
  detailLoading: boolean;
  detailError: DeskError | null;
  openExchange(id: number): Promise<void>;
  closeExchange(): void;
  /** Reloads the open exchange (once) when a burst of events concerns it (its response arrived, a replay of it was made). */
  noteExchangesForDetail(xs: readonly ExchangeSummary[]): void;
}

let request = 0;

export const createDetailSlice: SliceCreator<DetailSlice> = (set, get) => ({
  openId: null,
  detail: null,
  detailLoading: false,
  detailError: null,

  async openExchange(id) {
    const mine = ++request;
    const keep = get().detail?.id === id;
    set({ openId: id, detailLoading: true, detailError: null, ...(keep ? {} : { detail: null }) });
    const r = await desk.getExchange(id);
    if (mine !== request) return;
    set(r.ok ? { detail: r.value, detailLoading: false } : { detailError: r.error, detailLoading: false, detail: null });
  },

  closeExchange() {
    request++;
    set({ openId: null, detail: null, detailError: null, detailLoading: false });
  },

  noteExchangesForDetail(xs) {
    const { openId } = get();
    if (openId === null) return;
    if (xs.some((x) => x.id === openId || x.sourceId === openId)) void get().openExchange(openId);
  },
});
