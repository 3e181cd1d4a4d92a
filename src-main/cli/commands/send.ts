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
    .description('build a new callback from a template, with fresh ids, and send it')
    .argument('<kind>', TEMPLATE_KINDS.join('|'))
    .option('--user-id <id>', `the userId of the message (default ${DEFAULT_TEST_USER})`);
  addOutboundOptions(cmd).action(async (kind: string, _opts, command: Command) => {
    const opts = command.optsWithGlobals() as OutboundFlags & { userId?: string; home?: string };
    if (!(TEMPLATE_KINDS as readonly string[]).includes(kind)) throw new UsageError(`send ${kind}: use one of ${TEMPLATE_KINDS.join(', ')}`);
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
