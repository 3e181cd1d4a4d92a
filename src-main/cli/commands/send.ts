import type { Command } from 'commander';
import { applyEdits } from '../../core/desk/shell-kit';
import { TEMPLATE_KINDS } from '../../core/desk/shell-kit';
import { DEFAULT_TEST_USER } from '../../shared/model';
import { DeskFailure } from '../../core/desk/shell-kit';
import type { TemplateKind } from '../../shared/model';
import { must, withDesk } from '../context';
import { UsageError } from '../errors';
import { addOutboundOptions, outboundRequest, reportSent, type OutboundFlags } from './outbound-options';

export function registerSend(program: Command): void {
  const cmd = program
    .command('send')
    .description('build a new callback from a template, with fresh ids, and send it; or send a saved request (--saved NAME)')
    .argument('[kind]', TEMPLATE_KINDS.join('|'))
    .option('--user-id <id>', `the userId of the message (default ${DEFAULT_TEST_USER})`)
    .option('--saved <name>', 'send the request saved under NAME in the profile (signed now, as it was saved unless --signature)');
  addOutboundOptions(cmd).action(async (kind: string | undefined, _opts, command: Command) => {
    const opts = command.optsWithGlobals() as OutboundFlags & { userId?: string; home?: string; saved?: string };
    if (opts.saved !== undefined) {
      if (kind !== undefined) throw new UsageError(`send: give a template kind or --saved NAME, not both`);
      return sendSaved(opts.saved, opts);
    }
    if (kind === undefined || !(TEMPLATE_KINDS as readonly string[]).includes(kind))
      throw new UsageError(`send ${kind ?? ''}: use one of ${TEMPLATE_KINDS.join(', ')}, or --saved NAME`);
    const request = await outboundRequest(opts);
    await withDesk(opts, async (desk) => {
      const templateOptions = {
        ...(request.profile !== undefined ? { profile: request.profile } : {}),
        ...(request.callbackPrefix !== undefined ? { callbackPrefix: request.callbackPrefix } : {}),
      };
      const draft = must(await desk.draftTemplate(kind as TemplateKind, opts.userId, templateOptions));
      let body: Uint8Array;
      try {
        body = applyEdits(Buffer.from(draft.bodyBase64, 'base64'), request);
      } catch (err) {
        throw new UsageError(err instanceof DeskFailure ? err.message : String(err));
      }
      const sent = must(await desk.send({ ...request, draft: { ...draft, bodyBase64: Buffer.from(body).toString('base64') } }));
      reportSent(sent, request.signature ?? 'resign', opts.json);
    });
  });
}

/** Sends a saved request: its exact bytes (after any --set, --unset or --body-file edits), signed now. */
async function sendSaved(name: string, opts: OutboundFlags & { home?: string }): Promise<void> {
  const request = await outboundRequest(opts);
  await withDesk(opts, async (desk) => {
    const saved = must(await desk.listSavedRequests(request.profile)).find((r) => r.name === name);
    if (!saved) throw new UsageError(`send --saved: no saved request "${name}" (wager-desk saved list)`);
    let body: Uint8Array;
    try {
      body = applyEdits(Buffer.from(saved.bodyBase64, 'base64'), request);
    } catch (err) {
      throw new UsageError(err instanceof DeskFailure ? err.message : String(err));
    }
    const draft = { method: saved.method, path: saved.path, headers: saved.headers, bodyBase64: Buffer.from(body).toString('base64'), sourceId: null };
    const signature = opts.signature !== undefined && request.signature !== undefined ? request.signature : saved.signature;
    const sent = must(await desk.send({ ...request, signature, draft }));
    reportSent(sent, signature, opts.json);
  });
}
