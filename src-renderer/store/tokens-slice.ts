import type { DeskError, ExchangeSummary, TokenResult } from '../../src-main/shared/model';
import { desk } from '../api';
import { readStored, writeStored } from './recent-values';
import type { SliceCreator } from './types';

export interface RecentTokenUser {
  userId: string;
  displayName: string;
}

export interface TokensSlice {
  /** Newest first; remembered in localStorage (identifiers only: the API key stays in the profile). */
  tokenRecentUsers: RecentTokenUser[];
  tokenBusy: boolean;
  tokenResult: TokenResult | null;
  /** The request that produced tokenResult, shown beside it. */
  tokenRequestedFor: RecentTokenUser | null;
  tokenError: DeskError | null;
  tokenHistory: ExchangeSummary[];
  tokenHistoryError: DeskError | null;
  requestToken(user: RecentTokenUser): Promise<void>;
  loadTokenHistory(): Promise<void>;
  clearTokenError(): void;
}

const RECENT_KEY = 'wager-desk.recent-token-users';
const MAX_RECENT = 8;

function isRecentList(value: unknown): value is RecentTokenUser[] {
  return (
    Array.isArray(value) &&
    value.every(
      (v) => typeof v === 'object' && v !== null && typeof (v as RecentTokenUser).userId === 'string' && typeof (v as RecentTokenUser).displayName === 'string',
    )
  );
}

function rememberUser(list: readonly RecentTokenUser[], user: RecentTokenUser): RecentTokenUser[] {
  return [user, ...list.filter((u) => u.userId !== user.userId)].slice(0, MAX_RECENT);
}

export const createTokensSlice: SliceCreator<TokensSlice> = (set, get) => ({
  tokenRecentUsers: readStored(RECENT_KEY, isRecentList, []),
  tokenBusy: false,
  tokenResult: null,
  tokenRequestedFor: null,
  tokenError: null,
  tokenHistory: [],
  tokenHistoryError: null,

  async requestToken(user) {
    const clean = { userId: user.userId.trim(), displayName: user.displayName.trim() };
    set({ tokenBusy: true, tokenError: null });
    const r = await desk.requestToken(clean);
    if (r.ok) {
      const recent = rememberUser(get().tokenRecentUsers, clean);
      writeStored(RECENT_KEY, recent);
      set({ tokenBusy: false, tokenResult: r.value, tokenRequestedFor: clean, tokenRecentUsers: recent });
    } else {
      set({ tokenBusy: false, tokenError: r.error, tokenResult: null });
    }
    void get().loadTokenHistory();
  },

  async loadTokenHistory() {
    const r = await desk.listTokenHistory(50);
    set(r.ok ? { tokenHistory: r.value, tokenHistoryError: null } : { tokenHistoryError: r.error });
  },

  clearTokenError: () => set({ tokenError: null }),
});
