import type { DeskError, EdgeCase, EdgeCaseRun } from '../../src-main/shared/model';
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
}

export const createEdgeCasesSlice: SliceCreator<EdgeCasesSlice> = (set, get) => {
  const patchRun = (caseId: string, patch: Partial<EdgeCaseRunState>): void => {
    const before = get().edgeRuns[caseId] ?? { running: false, run: null, error: null };
    set({ edgeRuns: { ...get().edgeRuns, [caseId]: { ...before, ...patch } } });
  };
  return {
    edgeCases: [],
    edgeCasesError: null,
    edgeRuns: {},

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
  };
};
