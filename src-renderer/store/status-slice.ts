import type { DeskError, DeskStatus, ProxyConfig } from '../../src-main/shared/model';
import { desk } from '../api';
import type { SliceCreator } from './types';

/** What the proxy panel may change; the rest (the secret, the limits) stays as `serve` or the last start set it. */
type ProxyPanelField = 'port' | 'upstream' | 'tls' | 'publicUrl';

export interface StatusSlice {
  status: DeskStatus | null;
  statusError: DeskError | null;
  /** A start or stop is under way: the buttons wait. */
  proxyBusy: boolean;
  refreshStatus(): Promise<void>;
  setStatus(status: DeskStatus): void;
  /** The log's counts after a commit (carried by exchange events). */
  applyCounts(counts: DeskStatus['counts']): void;
  startProxy(config?: Partial<Pick<ProxyConfig, ProxyPanelField>>): Promise<boolean>;
  stopProxy(): Promise<boolean>;
  /** Applies a new port, upstream, TLS or public URL to the proxy (without dropping traffic when it runs). */
  reconfigureProxy(config: Partial<Pick<ProxyConfig, ProxyPanelField>>): Promise<boolean>;
  clearStatusError(): void;
}

export const createStatusSlice: SliceCreator<StatusSlice> = (set, get) => ({
  status: null,
  statusError: null,
  proxyBusy: false,
  async refreshStatus() {
    const r = await desk.getStatus();
    // A success clears an earlier failure: the banner's Retry ends with the banner gone.
    if (r.ok) get().setStatus(r.value);
    set(r.ok ? { statusError: null } : { statusError: r.error });
  },
  setStatus(status) {
    const before = get().status?.activeProfile;
    set({ status });
    // The list is the active profile's: another profile made active shows its captures.
    if (before !== undefined && before !== status.activeProfile && get().capturesLoaded) void get().reloadCaptures();
  },
  applyCounts(counts) {
    const status = get().status;
    if (status && (status.counts.inbound !== counts.inbound || status.counts.outbound !== counts.outbound)) set({ status: { ...status, counts } });
  },
  async startProxy(config = {}) {
    set({ proxyBusy: true, statusError: null });
    const r = await desk.startProxy(config);
    set(r.ok ? { status: r.value, proxyBusy: false } : { statusError: r.error, proxyBusy: false });
    return r.ok;
  },
  async stopProxy() {
    set({ proxyBusy: true, statusError: null });
    const r = await desk.stopProxy();
    set(r.ok ? { status: r.value, proxyBusy: false } : { statusError: r.error, proxyBusy: false });
    return r.ok;
  },
  // The desk's startProxy replaces a running proxy in one step (validating first), so no stop is needed.
  reconfigureProxy: (config) => get().startProxy(config),
  clearStatusError: () => set({ statusError: null }),
});
