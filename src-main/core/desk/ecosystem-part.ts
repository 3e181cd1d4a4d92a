import type { DeskApi } from '../../shared/desk-api';
import { HarThread, curlForDraft, curlForExchange, exportHar, harEntriesBuilder, importHar, ticketBundle } from '../export';
import { callbackSettings } from '../protocol/callback-settings';
import { storedSecrets } from '../redact';
import { attempt } from './attempt';
import type { DeskContext } from './context';
import { actingProfile, scopedQuery } from './scope';

export type EcosystemPart = Pick<DeskApi, 'curlFor' | 'curlForDraft' | 'exportHar' | 'importHar' | 'ticketBundle'>;

export function ecosystemPart(ctx: DeskContext): EcosystemPart {
  // The HAR's entries are built on a thread of their own, started at the first export and ended with the desk.
  const thread = HarThread.create();
  if (thread) ctx.onClose(() => thread.close());
  const buildHar = harEntriesBuilder(thread);
  return {
    curlFor: (id) => attempt(() => curlForExchange(ctx, Number(id))),
    curlForDraft: (draft, options) => attempt(() => curlForDraft(ctx, draft, options ?? {})),
    exportHar: (query) => attempt(() => exportHar(ctx, scopedQuery(ctx, query ?? {}), buildHar)),
    importHar: (text, options) =>
      attempt(() => {
        // An unknown profile name is an error (not the active profile): ctx.profile throws not-found.
        const profile = options?.profile;
        const settings = callbackSettings(profile !== undefined ? ctx.profile(profile) : ctx.profile(), options ?? {});
        const deps = {
          log: ctx.log,
          candidates: ctx.signingCandidates(profile),
          secrets: storedSecrets(ctx),
          callbackPrefix: settings.prefix,
          amounts: settings.amounts,
          // Judged with the profile's prefix and secret: its rows are that profile's.
          profile: actingProfile(ctx, profile),
        };
        return importHar(deps, text, options ?? {});
      }),
    ticketBundle: (depositId, profile) => attempt(() => ticketBundle(ctx, depositId, actingProfile(ctx, profile) ?? undefined)),
  };
}
