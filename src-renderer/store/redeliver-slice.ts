import type { DeskEvents } from '../../src-main/shared/desk-api';
import type { DeskError, RedeliveryFilter, RedeliveryReport, RedeliveryRequest, RedeliverySelection } from '../../src-main/shared/model';
import { desk } from '../api';
import { outcomeOfError, type SendOutcome } from './outcome';
import type { SliceCreator } from './types';

export interface RedeliverSlice {
  /** What the filter on screen would send now (count and a preview), once asked. */
  redeliverSelection: RedeliverySelection | null;
  redeliverSelecting: boolean;
  /** The run this window started, while it runs. */
  redeliverRunId: string | null;
  redeliverProgress: DeskEvents['redeliver-progress'] | null;
  /** The report of the last run this window started. */
  redeliverReport: RedeliveryReport | null;
  redeliverError: DeskError | null;
  selectRedelivery(filter: RedeliveryFilter): Promise<void>;
  startRedelivery(request: Omit<RedeliveryRequest, 'runId'>): Promise<SendOutcome>;
  stopRedelivery(): Promise<void>;
  /** A 'redeliver-progress' event (routed by events.ts). */
  noteRedeliverProgress(progress: DeskEvents['redeliver-progress']): void;
  clearRedelivery(): void;
}

function newRunId(): string {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return `ui-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Counts the selections asked for, so a late answer to an earlier one is dropped. */
let selections = 0;

export const createRedeliverSlice: SliceCreator<RedeliverSlice> = (set, get) => ({
  redeliverSelection: null,
  redeliverSelecting: false,
  redeliverRunId: null,
  redeliverProgress: null,
  redeliverReport: null,
  redeliverError: null,

  async selectRedelivery(filter) {
    // Asked again on every keystroke: only the latest question's answer may show, whatever order answers come in.
    const asked = ++selections;
    set({ redeliverSelecting: true, redeliverError: null });
    const r = await desk.selectRedelivery(filter, { limit: 20 });
    if (asked !== selections) return;
    set(r.ok ? { redeliverSelecting: false, redeliverSelection: r.value } : { redeliverSelecting: false, redeliverSelection: null, redeliverError: r.error });
  },

  async startRedelivery(request) {
    if (get().redeliverRunId !== null) return { status: 'failed' };
    // The id is chosen here, so progress events of this run are known from the first one.
    const runId = newRunId();
    set({ redeliverRunId: runId, redeliverProgress: null, redeliverReport: null, redeliverError: null });
    const r = await desk.redeliver({ ...request, runId });
    if (!r.ok) {
      const outcome = outcomeOfError(r.error);
      set({ redeliverRunId: null, redeliverError: outcome.status === 'confirm' ? null : r.error });
      return outcome;
    }
    set({ redeliverRunId: null, redeliverReport: r.value });
    return { status: 'done' };
  },

  async stopRedelivery() {
    const runId = get().redeliverRunId;
    if (runId !== null) await desk.stopRedelivery(runId);
  },

  noteRedeliverProgress(p) {
    if (p.runId !== get().redeliverRunId) return;
    set({ redeliverProgress: p });
  },

  clearRedelivery() {
    set({ redeliverSelection: null, redeliverReport: null, redeliverError: null, redeliverProgress: null });
  },
});
