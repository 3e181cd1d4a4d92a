import type { DeskApi } from '../../shared/desk-api';
import { DeskFailure } from '../result';
import { attempt } from './attempt';
import { requestToken, tokenHistory } from '../token';
import type { DeskContext } from './context';

export type TokenPart = Pick<DeskApi, 'requestToken' | 'listTokenHistory'>;

export function tokenPart(ctx: DeskContext): TokenPart {
  return {
    requestToken: (request) => attempt(() => requestToken(ctx, request)),
    listTokenHistory: (limit) =>
      attempt(() => {
        if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new DeskFailure('bad-input', 'limit must be a whole number of 1 or more.');
        return tokenHistory(ctx, limit);
      }),
  };
}
