import type { DeskError, ExchangeDetail, ExchangeSummary, Timeline } from '../../src-main/shared/model';
import { desk } from '../api';
import type { SliceCreator } from './types';

export interface DetailSlice {
  /** The exchange shown in the detail pane. */
  openId: number | null;
  detail: ExchangeDetail | null;
  detailLoading: boolean;
  detailError: DeskError | null;
  /** The open exchange's deposit, for its anomalies (null: no deposit, or not loaded yet). */
  detailDeposit: Timeline | null;
  openExchange(id: number): Promise<void>;
  closeExchange(): void;
  /** Reloads the open exchange (once) when a burst of events concerns it (its response arrived, a replay of it was made, its deposit got another exchange). */
  noteExchangesForDetail(xs: readonly ExchangeSummary[]): void;
}

let request = 0;

export const createDetailSlice: SliceCreator<DetailSlice> = (set, get) => ({
  openId: null,
  detail: null,
  detailLoading: false,
  detailError: null,
  detailDeposit: null,

  async openExchange(id) {
    const mine = ++request;
    const keep = get().detail?.id === id;
    set({ openId: id, detailLoading: true, detailError: null, ...(keep ? {} : { detail: null, detailDeposit: null }) });
    const r = await desk.getExchange(id);
    if (mine !== request) return;
    set(r.ok ? { detail: r.value, detailLoading: false } : { detailError: r.error, detailLoading: false, detail: null, detailDeposit: null });
    const depositId = r.ok ? r.value.depositId : null;
    if (depositId === null) return set({ detailDeposit: null });
    // The deposit's anomalies are a second look; a failure leaves them out rather than hiding the exchange.
    const profile = r.ok ? r.value.profile : null;
    const t = await desk.getTimeline(depositId, ...(profile !== null ? [profile] : []));
    if (mine !== request) return;
    set({ detailDeposit: t.ok ? t.value : null });
  },

  closeExchange() {
    request++;
    set({ openId: null, detail: null, detailError: null, detailLoading: false, detailDeposit: null });
  },

  noteExchangesForDetail(xs) {
    const { openId } = get();
    if (openId === null) return;
    const depositId = get().detail?.depositId ?? null;
    if (xs.some((x) => x.id === openId || x.sourceId === openId || (depositId !== null && x.depositId === depositId))) void get().openExchange(openId);
  },
});
