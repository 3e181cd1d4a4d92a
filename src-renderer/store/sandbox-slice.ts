import type { DeskError, ExchangeSummary, ProxyFault, ProxyFaultInput, SandboxState } from '../../src-main/shared/model';
import { desk } from '../api';
import type { SliceCreator } from './types';

export interface SandboxSlice {
  sandbox: SandboxState | null;
  sandboxError: DeskError | null;
  loadSandbox(): Promise<void>;
  setSandboxBalance(userId: string, balance: number): Promise<boolean>;
  resetSandbox(): Promise<boolean>;
  clearSandboxError(): void;
  /** The proxy's faults (sandbox and forward mode), spent ones included. */
  faults: ProxyFault[];
  loadFaults(): Promise<void>;
  addFault(input: ProxyFaultInput): Promise<boolean>;
  clearFaults(): Promise<boolean>;
  /** While the sandbox screen is open its books follow the captures; returns the function that stops it. */
  followSandbox(): () => void;
  /** Reloads the books (at most every REFRESH_MS) when a burst of captures reached the proxy while followed. */
  noteExchangesForSandbox(xs: readonly ExchangeSummary[]): void;
}

const REFRESH_MS = 400;
let request = 0;
let followers = 0;
let refreshTimer: ReturnType<typeof setTimeout> | null = null;

export const createSandboxSlice: SliceCreator<SandboxSlice> = (set, get) => ({
  sandbox: null,
  sandboxError: null,

  async loadSandbox() {
    const mine = ++request;
    const r = await desk.getSandboxState();
    if (mine !== request) return;
    set(r.ok ? { sandbox: r.value, sandboxError: null } : { sandboxError: r.error });
  },

  async setSandboxBalance(userId, balance) {
    set({ sandboxError: null });
    request++;
    const r = await desk.setSandboxBalance(userId, balance);
    set(r.ok ? { sandbox: r.value } : { sandboxError: r.error });
    return r.ok;
  },

  async resetSandbox() {
    set({ sandboxError: null });
    request++;
    const r = await desk.resetSandbox();
    set(r.ok ? { sandbox: r.value } : { sandboxError: r.error });
    return r.ok;
  },

  clearSandboxError: () => set({ sandboxError: null }),

  faults: [],
  async loadFaults() {
    const r = await desk.listFaults();
    set(r.ok ? { faults: r.value } : { sandboxError: r.error });
  },
  async addFault(input) {
    set({ sandboxError: null });
    const r = await desk.addFault(input);
    if (!r.ok) set({ sandboxError: r.error });
    await get().loadFaults();
    return r.ok;
  },
  async clearFaults() {
    const r = await desk.clearFaults();
    if (!r.ok) set({ sandboxError: r.error });
    await get().loadFaults();
    return r.ok;
  },

  followSandbox() {
    followers++;
    void get().loadSandbox();
    void get().loadFaults();
    return () => {
      followers--;
      if (followers === 0 && refreshTimer !== null) {
        clearTimeout(refreshTimer);
        refreshTimer = null;
      }
    };
  },

  noteExchangesForSandbox(xs) {
    if (followers === 0 || refreshTimer !== null || !xs.some((x) => x.direction === 'inbound')) return;
    refreshTimer = setTimeout(() => {
      refreshTimer = null;
      void get().loadSandbox();
      // A fault's counts move with the callbacks it applies to.
      if (get().faults.length > 0) void get().loadFaults();
    }, REFRESH_MS);
  },
});
