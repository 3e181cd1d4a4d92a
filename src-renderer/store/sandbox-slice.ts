import type { DeskError, SandboxState } from '../../src-main/shared/model';
import { desk } from '../api';
import type { SliceCreator } from './types';

export interface SandboxSlice {
  sandbox: SandboxState | null;
  sandboxError: DeskError | null;
  loadSandbox(): Promise<void>;
  setSandboxBalance(userId: string, balance: number): Promise<boolean>;
  resetSandbox(): Promise<boolean>;
  clearSandboxError(): void;
}

let request = 0;

export const createSandboxSlice: SliceCreator<SandboxSlice> = (set) => ({
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
});
