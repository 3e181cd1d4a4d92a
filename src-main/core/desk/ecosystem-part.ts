import type { DeskApi } from '../../shared/desk-api';
import type { DeskContext } from './context';
import { notYet } from './not-yet';

export type EcosystemPart = Pick<DeskApi, 'curlFor' | 'curlForDraft' | 'exportHar' | 'importHar' | 'ticketBundle'>;

export function ecosystemPart(_ctx: DeskContext): EcosystemPart {
  return {
    curlFor: notYet('curlFor'),
    curlForDraft: notYet('curlForDraft'),
    exportHar: notYet('exportHar'),
    importHar: notYet('importHar'),
    ticketBundle: notYet('ticketBundle'),
  };
}
