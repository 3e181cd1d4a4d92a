import type { DeskApi } from '../../shared/desk-api';
import { curlForDraft, curlForExchange, exportHar, importHar, ticketBundle } from '../export';
import { attempt } from '../result';
import type { DeskContext } from './context';

export type EcosystemPart = Pick<DeskApi, 'curlFor' | 'curlForDraft' | 'exportHar' | 'importHar' | 'ticketBundle'>;

export function ecosystemPart(ctx: DeskContext): EcosystemPart {
  return {
    curlFor: (id) => attempt(() => curlForExchange(ctx, Number(id))),
    curlForDraft: (draft, options) => attempt(() => curlForDraft(ctx, draft, options ?? {})),
    exportHar: (query) => attempt(() => exportHar(ctx, query ?? {})),
    importHar: (text, options) => attempt(() => importHar(ctx, text, options ?? {})),
    ticketBundle: (depositId) => attempt(() => ticketBundle(ctx, depositId)),
  };
}
