import type { Command } from 'commander';
import { isResultValue } from '../../core/protocol';
import { RESULT_VALUES } from '../../shared/model';
import { must, withDesk } from '../context';
import { UsageError } from '../errors';
import { addOutboundOptions, outboundRequest, reportSent, type OutboundFlags } from './outbound-options';

export function registerReplay(program: Command): void {
  const cmd = program
    .command('replay')
    .description("send a captured request again (edited, re-signed) to the operator; --follow-up sends the result of a captured pay instead")
    .argument('<id>', 'id of the captured exchange')
    .option('--follow-up <result>', `send the ${RESULT_VALUES.join('|')} result for the captured pay (same deposit) instead of the pay itself`);
  addOutboundOptions(cmd).action(async (id: string, _opts, command: Command) => {
    const opts = command.optsWithGlobals() as OutboundFlags & { followUp?: string; home?: string };
    const sourceId = Number(id);
    if (!Number.isInteger(sourceId) || sourceId <= 0) throw new UsageError(`replay ${id}: the id must be a positive whole number`);
    const followUp = opts.followUp?.toUpperCase();
    if (followUp !== undefined && !isResultValue(followUp)) throw new UsageError(`--follow-up ${opts.followUp}: use one of ${RESULT_VALUES.join(', ')}`);
    const request = await outboundRequest(opts);
    await withDesk(opts, async (desk) => {
      const sent = must(await desk.replay({ ...request, sourceId, ...(followUp !== undefined ? { followUp } : {}) }));
      reportSent(sent, request.signature ?? 'resign', opts.json);
    });
  });
}
