import type { DeskApi } from '../../shared/desk-api';
import type { DeskContext } from './context';
import { notYet } from './not-yet';

export type ProxyPart = Pick<DeskApi, 'getStatus' | 'startProxy' | 'stopProxy' | 'getSandboxState' | 'setSandboxBalance' | 'resetSandbox'>;

export function proxyPart(_ctx: DeskContext): ProxyPart {
  return {
    getStatus: notYet('getStatus'),
    startProxy: notYet('startProxy'),
    stopProxy: notYet('stopProxy'),
    getSandboxState: notYet('getSandboxState'),
    setSandboxBalance: notYet('setSandboxBalance'),
    resetSandbox: notYet('resetSandbox'),
  };
}
