import type { DeskApi } from '../../shared/desk-api';
import { curlForDraft, curlForExchange, exportHar, importHar, ticketBundle } from '../export';
import { storedSecrets } from '../redact';
import { attempt } from '../result';
import type { DeskContext } from './context';

export type EcosystemPart = Pick<DeskApi, 'curlFor' | 'curlForDraft' | 'exportHar' | 'importHar' | 'ticketBundle'>;

export function ecosystemPart(ctx: DeskContext): EcosystemPart {
  return {
    curlFor: (id) => attempt(() => curlForExchange(ctx, Number(id))),
    curlForDraft: (draft, options) => attempt(() => curlForDraft(ctx, draft, options ?? {})),
    exportHar: (query) => attempt(() => exportHar(ctx, query ?? {})),
    importHar: (text, options) =>
      attempt(() => {
        const profile = options?.profile;
        if (profile !== undefined) ctx.profile(profile); // an unknown name is an error, not the active profile
        const deps = {
          exchanges: ctx.store.exchanges,
          transaction: <T>(write: () => T): T => ctx.store.db.transaction(write)(),
          candidates: ctx.signingCandidates(profile),
          secrets: storedSecrets(ctx),
        };
        return importHar(deps, text, options ?? {});
      }),
    ticketBundle: (depositId) => attempt(() => ticketBundle(ctx, depositId)),
  };
}
