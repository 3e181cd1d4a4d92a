import type { DeskApi } from '../../shared/desk-api';
import type { DeskContext } from './context';
import { notYet } from './not-yet';

export type TokenPart = Pick<DeskApi, 'requestToken' | 'listTokenHistory'>;

export function tokenPart(_ctx: DeskContext): TokenPart {
  return {
    requestToken: notYet('requestToken'),
    listTokenHistory: notYet('listTokenHistory'),
  };
}
