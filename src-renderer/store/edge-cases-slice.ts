import type { DeskError, EdgeCase, EdgeCaseRun } from '../../src-main/shared/model';
import { summarizeEdgeCases, type EdgeCaseSummary } from '../../src-main/shared/edge-case-summary';
import { desk } from '../api';
import { outcomeOfError, type SendOutcome } from './outcome';
import type { SliceCreator } from './types';

export interface EdgeCaseRunState {
  running: boolean;
  run: EdgeCaseRun | null;
  error: DeskError | null;
}

export interface EdgeCaseSendOptions {
  to?: string;
  userId?: string;
  customSecret?: string;
  confirmedProduction?: boolean;
}

export interface EdgeCasesSlice {
  edgeCases: EdgeCase[];
  edgeCasesError: DeskError | null;
  /** The last run of each case, by case id. */
  edgeRuns: Record<string, EdgeCaseRunState>;
  loadEdgeCases(): Promise<void>;
  runEdgeCase(caseId: string, options: EdgeCaseSendOptions): Promise<SendOutcome>;
  /** "Run all": the state of the last run of several cases in one go. */
  edgeRunAll: EdgeRunAllState | null;
  /** Runs the cases one after the other; stops at a question (production) or an error, or when stopped. */
  runAllEdgeCases(caseIds: readonly string[], options: EdgeCaseSendOptions): Promise<SendOutcome>;
  stopAllEdgeCases(): void;
}

export interface EdgeRunAllState {
  running: boolean;
  done: number;
  total: number;
  /** Counted over the cases run so far (like check's). */
  summary: EdgeCaseSummary;
  stopped: boolean;
}

export const createEdgeCasesSlice: SliceCreator<EdgeCasesSlice> = (set, get) => {
  const patchRun = (caseId: string, patch: Partial<EdgeCaseRunState>): void => {
    const before = get().edgeRuns[caseId] ?? { running: false, run: null, error: null };
    set({ edgeRuns: { ...get().edgeRuns, [caseId]: { ...before, ...patch } } });
  };
  let stopRequested = false;
  return {
    edgeCases: [],
    edgeCasesError: null,
    edgeRuns: {},
    edgeRunAll: null,

    async loadEdgeCases() {
      const r = await desk.listEdgeCases();
      set(r.ok ? { edgeCases: r.value, edgeCasesError: null } : { edgeCasesError: r.error });
    },

    async runEdgeCase(caseId, options) {
      patchRun(caseId, { running: true, error: null });
      const r = await desk.runEdgeCase(caseId, {
        ...(options.to ? { to: options.to } : {}),
        ...(options.userId ? { userId: options.userId.trim() } : {}),
        ...(options.customSecret ? { signature: 'custom' as const, customSecret: options.customSecret } : {}),
        ...(options.confirmedProduction ? { confirmedProduction: true } : {}),
      });
      if (r.ok) {
        patchRun(caseId, { running: false, run: r.value, error: null });
        return { status: 'done' };
      }
      const outcome = outcomeOfError(r.error);
      patchRun(caseId, { running: false, error: outcome.status === 'confirm' ? null : r.error });
      return outcome;
    },

    async runAllEdgeCases(caseIds, options) {
      stopRequested = false;
      const runs: EdgeCaseRun[] = [];
      const progress = (patch: Partial<EdgeRunAllState>): void =>
        set({ edgeRunAll: { running: true, done: runs.length, total: caseIds.length, summary: summarizeEdgeCases(runs), stopped: false, ...patch } });
      progress({});
      for (const caseId of caseIds) {
        if (stopRequested) {
          progress({ running: false, stopped: true });
          return { status: 'done' };
        }
        const outcome = await get().runEdgeCase(caseId, options);
        if (outcome.status !== 'done') {
          // A production question comes before anything was sent: the whole run waits for the answer.
          progress({ running: false, stopped: outcome.status !== 'confirm' });
          if (outcome.status === 'confirm') set({ edgeRunAll: null });
          return outcome;
        }
        const run = get().edgeRuns[caseId]?.run;
        if (run) runs.push(run);
        progress({});
      }
      progress({ running: false });
      return { status: 'done' };
    },

    stopAllEdgeCases() {
      stopRequested = true;
    },
  };
};
