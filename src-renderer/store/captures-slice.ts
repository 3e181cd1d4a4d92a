import type { DeskError, ExchangeDeletion, ExchangeKind, ExchangeQuery, ExchangeSummary, Verdict } from '../../src-main/shared/model';
import { desk } from '../api';
import { indexOfId, matchesQuery, mergeExchanges } from './query-match';
import type { SliceCreator } from './types';

export interface CaptureFilters {
  direction: 'inbound' | 'all';
  kind: ExchangeKind | '';
  result: string;
  verdict: Verdict | '';
  search: string;
  /** Every profile's captures (unassigned ones too) instead of the active profile's. */
  allProfiles: boolean;
}

export const NO_FILTERS: CaptureFilters = { direction: 'inbound', kind: '', result: '', verdict: '', search: '', allProfiles: false };

export const PAGE_SIZE = 200;

export function filtersActive(f: CaptureFilters): boolean {
  return f.direction !== 'inbound' || f.kind !== '' || f.result !== '' || f.verdict !== '' || f.search.trim() !== '' || f.allProfiles;
}

export interface CapturesSlice {
  /** Newest first. */
  captures: readonly ExchangeSummary[];
  capturesNext: number | null;
  /** Seconds after which the last page's read stopped at its time budget (what it found is shown); null: complete. */
  capturesStoppedAfter: number | null;
  capturesLoading: boolean;
  /** True once the first page arrived (so an empty list means "nothing captured", not "loading"). */
  capturesLoaded: boolean;
  capturesError: DeskError | null;
  filters: CaptureFilters;
  selectedId: number | null;
  setFilters(patch: Partial<CaptureFilters>): void;
  reloadCaptures(): Promise<void>;
  loadMoreCaptures(): Promise<void>;
  /** Folds a burst of exchange events (oldest first) into the list. */
  applyExchanges(xs: readonly ExchangeSummary[]): void;
  select(id: number | null): void;
  /** Moves the selection by delta rows (arrow keys); returns the new index. */
  moveSelection(delta: number): number;
  clearCapturesError(): void;
  /** How many rows a delete of the selection or of the filter's rows would remove (for the confirmation), and the highest id among them. */
  countForDelete(what: 'selected' | 'filter'): Promise<{ count: number; lastId: number | null } | null>;
  /**
   * Deletes the selected capture or the rows the filters match, up to `upToId` (the last the confirmation
   * counted: rows captured while it was open stay); the list reloads and the counts follow.
   */
  deleteCaptures(what: 'selected' | 'filter', upToId: number | null): Promise<boolean>;
}

function deletionOf(what: 'selected' | 'filter', selectedId: number | null, filters: CaptureFilters): ExchangeDeletion | null {
  if (what === 'filter') return { filter: toQuery(filters) };
  return selectedId === null ? null : { ids: [selectedId] };
}

/** `active`: the active profile, named so that live rows of other profiles stay out of the list (the desk defaults to it too). */
export function toQuery(f: CaptureFilters, active: string | null = null): ExchangeQuery {
  const q: ExchangeQuery = { direction: f.direction };
  if (f.allProfiles) q.allProfiles = true;
  else if (active !== null) q.profile = active;
  if (f.kind) q.kind = f.kind;
  if (f.result) q.result = f.result;
  if (f.verdict) q.verdict = f.verdict;
  const search = f.search.trim();
  if (search) q.search = search;
  return q;
}

// Answers to an older request (filters changed since) are dropped: only the latest generation lands.
let generation = 0;

export const createCapturesSlice: SliceCreator<CapturesSlice> = (set, get) => ({
  captures: [],
  capturesNext: null,
  capturesStoppedAfter: null,
  capturesLoading: false,
  capturesLoaded: false,
  capturesError: null,
  filters: NO_FILTERS,
  selectedId: null,

  setFilters(patch) {
    set({ filters: { ...get().filters, ...patch } });
    void get().reloadCaptures();
  },

  async reloadCaptures() {
    const mine = ++generation;
    const query = toQuery(get().filters, get().status?.activeProfile ?? null);
    set({ capturesLoading: true, capturesError: null });
    const r = await desk.listExchanges({ ...query, limit: PAGE_SIZE });
    if (mine !== generation) return;
    if (!r.ok) {
      set({ capturesLoading: false, capturesError: r.error, capturesLoaded: true });
      return;
    }
    // Rows that arrived live while the page was loading, are newer than it and match the filters stay on top.
    const top = r.value.items[0]?.id ?? 0;
    const newer = get().captures.filter((x) => x.id > top && matchesQuery(x, query));
    set({
      captures: [...newer, ...r.value.items],
      capturesNext: r.value.nextBeforeId,
      capturesStoppedAfter: r.value.stoppedAfterSeconds ?? null,
      capturesLoading: false,
      capturesLoaded: true,
    });
  },

  async loadMoreCaptures() {
    const { capturesNext, capturesLoading, filters } = get();
    if (capturesNext === null || capturesLoading) return;
    const mine = generation;
    set({ capturesLoading: true });
    const r = await desk.listExchanges({ ...toQuery(filters, get().status?.activeProfile ?? null), beforeId: capturesNext, limit: PAGE_SIZE });
    if (mine !== generation) return;
    if (!r.ok) {
      set({ capturesLoading: false, capturesError: r.error });
      return;
    }
    set({
      captures: [...get().captures, ...r.value.items],
      capturesNext: r.value.nextBeforeId,
      capturesStoppedAfter: r.value.stoppedAfterSeconds ?? null,
      capturesLoading: false,
    });
  },

  applyExchanges(xs) {
    const { captures, filters, capturesNext, capturesLoaded } = get();
    if (!capturesLoaded || xs.length === 0) return;
    const next = mergeExchanges(captures, xs, toQuery(filters, get().status?.activeProfile ?? null), capturesNext === null);
    if (next !== captures) set({ captures: next });
  },

  select: (selectedId) => set({ selectedId }),

  moveSelection(delta) {
    const { captures, selectedId } = get();
    if (captures.length === 0) return -1;
    const current = selectedId === null ? -1 : indexOfId(captures, selectedId);
    // With nothing selected, start just above the first row: Down selects the first, End the last.
    const index = Math.max(0, Math.min(captures.length - 1, current + delta));
    set({ selectedId: captures[index]!.id });
    return index;
  },

  clearCapturesError: () => set({ capturesError: null }),

  async countForDelete(what) {
    const target = deletionOf(what, get().selectedId, get().filters);
    if (target === null) return { count: 0, lastId: null };
    const r = await desk.deleteExchanges(target, { dryRun: true });
    if (!r.ok) {
      set({ capturesError: r.error });
      return null;
    }
    return { count: r.value.deleted, lastId: r.value.lastId };
  },

  async deleteCaptures(what, upToId) {
    const { selectedId, filters, openId, captures } = get();
    const chosen = deletionOf(what, selectedId, filters);
    if (chosen === null) return false;
    const target = 'filter' in chosen && upToId !== null ? { ...chosen, upToId } : chosen;
    // The open exchange goes when it is the selected one, or one of the rows the filters show.
    const openGoes = openId !== null && (what === 'selected' ? openId === selectedId : captures.some((x) => x.id === openId));
    const r = await desk.deleteExchanges(target);
    if (!r.ok) {
      set({ capturesError: r.error });
      return false;
    }
    // The status event brings the counts too; applying the answer's now keeps the bar right without it.
    get().applyCounts(r.value.counts);
    if (openGoes) get().closeExchange();
    set({ selectedId: null, captures: [] });
    await get().reloadCaptures();
    return true;
  },
});
