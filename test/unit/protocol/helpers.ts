// Shared fixtures for the protocol tests: valid bodies of each message, and short ways to read findings.
import type { Finding, FindingLevel } from '../../../src-main/shared/model';

export const TOURNAMENT = '3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b';

export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
export const json = (v: unknown): Uint8Array => utf8(JSON.stringify(v));

export const VALID_PAY = { userId: 'u-1', depositId: 'd-1', currency: 'USD', amount: 5 };

export const VALID_RESULTS = {
  WIN: { result: 'WIN', userId: 'u-1', depositId: 'd-1', roomId: 'r-1', gameId: 'solitaire', currency: 'USD', amount: 10 },
  DRAW: { result: 'DRAW', userId: 'u-1', depositId: 'd-1', roomId: 'r-1', gameId: 'blocks', currency: 'USD', amount: 5 },
  LOSE: { result: 'LOSE', userId: 'u-1', depositId: 'd-1', roomId: 'r-1', gameId: 'blackjack' },
  REFUND: { result: 'REFUND', userId: 'u-1', depositId: 'd-1', roomId: 'r-1', gameId: 'solitaire', currency: 'USD', amount: 5 },
} as const;

export const at = (findings: Finding[], path: string, level?: FindingLevel): Finding[] =>
  findings.filter((f) => f.path === path && (level === undefined || f.level === level));

export const levels = (findings: Finding[], level: FindingLevel): Finding[] => findings.filter((f) => f.level === level);
