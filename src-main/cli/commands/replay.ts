import type { Command } from 'commander';
import { RESULT_VALUES, type ResultValue } from '../../shared/model';
import { must, withDesk } from '../context';
import { exchangeId, resultValue } from '../parse';
import { addOutboundOptions, outboundRequest, reportSent, type OutboundFlags } from './outbound-options';

export function registerReplay(program: Command): void {
  const cmd = program
    .command('replay')
    .description('send a captured request again (edited, re-signed) to the operator; --follow-up sends the result of a captured pay instead')
    .argument('<id>', 'id of the captured exchange', exchangeId)
    .option('--follow-up <result>', `send the ${RESULT_VALUES.join('|')} result for the captured pay (same deposit) instead of the pay itself`, resultValue);
  addOutboundOptions(cmd).action(async (sourceId: number, _opts, command: Command) => {
    const opts = command.optsWithGlobals() as OutboundFlags & { followUp?: ResultValue; home?: string };
    const followUp = opts.followUp;
    const request = await outboundRequest(opts);
    await withDesk(opts, async (desk) => {
      const sent = must(await desk.replay({ ...request, sourceId, ...(followUp !== undefined ? { followUp } : {}) }));
      reportSent(sent, request.signature ?? 'resign', opts.json);
    });
  });
}
