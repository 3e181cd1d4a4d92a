import type { DeskEvents } from '../../src-main/shared/desk-api';
import type { CheckReport, CheckReportSummary, CheckResult, DeskError } from '../../src-main/shared/model';
import { desk } from '../api';
import { outcomeOfError, type SendOutcome } from './outcome';
import type { SliceCreator } from './types';

export interface CheckRunOptions {
  to?: string;
  userId: string;
  /** Typed for this run only; never kept in the store. */
  customSecret?: string;
  confirmedProduction?: boolean;
  /** With another URL than the profile's operator: that server's balance endpoint, for this run only. */
  balanceUrl?: string;
}

export interface ChecksSlice {
  checkRunning: boolean;
  /** Results of the run under way, in the order they finished (from 'check-progress' events). */
  checkProgress: CheckResult[];
  checkTotal: number | null;
  /** The key of the run this window started, from its first progress event. */
  checkRunKey: string | null;
  /** The report on screen: the run just finished, or one opened from the list. */
  checkReport: CheckReport | null;
  checkReports: CheckReportSummary[];
  /** A run that failed. */
  checkError: DeskError | null;
  /** Past reports that could not be listed or opened (not a failed run). */
  checkReportsError: DeskError | null;
  runCheck(options: CheckRunOptions): Promise<SendOutcome>;
  /** A 'check-progress' event (routed by events.ts). */
  noteCheckProgress(progress: DeskEvents['check-progress']): void;
  loadCheckReports(): Promise<void>;
  openCheckReport(id: number): Promise<void>;
  clearCheckError(): void;
  clearCheckReportsError(): void;
}

export const createChecksSlice: SliceCreator<ChecksSlice> = (set, get) => ({
  checkRunning: false,
  checkProgress: [],
  checkTotal: null,
  checkRunKey: null,
  checkReport: null,
  checkReports: [],
  checkError: null,
  checkReportsError: null,

  async runCheck(options) {
    if (get().checkRunning) return { status: 'failed' };
    set({ checkRunning: true, checkProgress: [], checkTotal: null, checkRunKey: null, checkError: null, checkReport: null });
    try {
      const r = await desk.runCheck({
        userId: options.userId.trim(),
        ...(options.to ? { to: options.to } : {}),
        ...(options.to && options.balanceUrl?.trim() ? { balanceUrl: options.balanceUrl.trim() } : {}),
        ...(options.customSecret ? { customSecret: options.customSecret } : {}),
        ...(options.confirmedProduction ? { confirmedProduction: true } : {}),
      });
      if (!r.ok) {
        const outcome = outcomeOfError(r.error);
        set({ checkRunning: false, checkError: outcome.status === 'confirm' ? null : r.error });
        return outcome;
      }
      set({ checkRunning: false, checkReport: r.value });
      void get().loadCheckReports();
      return { status: 'done' };
    } finally {
      set({ checkRunKey: null });
    }
  },

  noteCheckProgress(p) {
    // The run's key is not known before it ends; the first check of a run started after the click
    // names it, and events of any other run (another window, the CLI) are left out.
    const { checkRunning, checkRunKey, checkProgress } = get();
    if (!checkRunning) return;
    if (checkRunKey === null && p.index === 0) set({ checkRunKey: p.runKey });
    if (p.runKey !== (get().checkRunKey ?? null)) return;
    if (checkProgress.some((c) => c.id === p.result.id)) return;
    set({ checkProgress: [...checkProgress, p.result], checkTotal: p.total });
  },

  async loadCheckReports() {
    const r = await desk.listCheckReports();
    set(r.ok ? { checkReports: r.value, checkReportsError: null } : { checkReportsError: r.error });
  },

  async openCheckReport(id) {
    set({ checkReportsError: null });
    const r = await desk.getCheckReport(id);
    set(r.ok ? { checkReport: r.value } : { checkReportsError: r.error });
  },

  clearCheckError: () => set({ checkError: null }),
  clearCheckReportsError: () => set({ checkReportsError: null }),
});
