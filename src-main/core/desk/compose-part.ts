import type { DeskApi } from '../../shared/desk-api';
import type { DeskContext } from './context';
import { notYet } from './not-yet';

export type ComposePart = Pick<
  DeskApi,
  | 'diffExchanges'
  | 'draftFromExchange'
  | 'draftFollowUp'
  | 'draftTemplate'
  | 'previewSignature'
  | 'inspectDraft'
  | 'replay'
  | 'send'
  | 'listEdgeCases'
  | 'runEdgeCase'
  | 'runCheck'
  | 'listCheckReports'
  | 'getCheckReport'
  | 'exportCheckReport'
>;

export function composePart(_ctx: DeskContext): ComposePart {
  return {
    diffExchanges: notYet('diffExchanges'),
    draftFromExchange: notYet('draftFromExchange'),
    draftFollowUp: notYet('draftFollowUp'),
    draftTemplate: notYet('draftTemplate'),
    previewSignature: notYet('previewSignature'),
    inspectDraft: notYet('inspectDraft'),
    replay: notYet('replay'),
    send: notYet('send'),
    listEdgeCases: notYet('listEdgeCases'),
    runEdgeCase: notYet('runEdgeCase'),
    runCheck: notYet('runCheck'),
    listCheckReports: notYet('listCheckReports'),
    getCheckReport: notYet('getCheckReport'),
    exportCheckReport: notYet('exportCheckReport'),
  };
}
