// `wager-desk reverify`: judges stored captures' signatures again with the secrets the profile has now.
import type { Command } from 'commander';
import type { ReverifyReport, ReverifyRequest } from '../../shared/model';
import { must, withDesk } from '../context';
import { addExchangeFilters, exchangeFilterQuery } from '../filters';
import { idList } from '../id-list';
import { printJson } from '../io';
import { kindOption, resultOption } from './tail-options';

function summary(r: ReverifyReport): string {
  const verdicts = Object.entries(r.verdicts)
    .map(([v, n]) => `${v} ${n}`)
    .join(', ');
  return [
    `verified again: ${r.judged} capture${r.judged === 1 ? '' : 's'}, ${r.changed} changed${verdicts ? ` (now ${verdicts})` : ''}`,
    `with profile ${r.profile}${r.fingerprint ? ` (sha256:${r.fingerprint})` : ''} at ${r.at}`,
    ...(r.changedIds.length > 0 ? [`changed: ${r.changedIds.join(', ')}${r.changedIds.length < r.changed ? ', …' : ''}`] : []),
  ].join('\n');
}

export function registerReverify(program: Command): void {
  // Only the profile's own captures are judged with its secrets: no --all-profiles here.
  addExchangeFilters(
    program.command('reverify').description("judge a profile's stored captures' signatures again with its secrets now"),
    'only this depositId',
    false,
  )
    .option('--ids <list>', 'only these exchanges: 12,15-20', idList)
    .option('--kind <kind>', 'only pay, results, token or other', kindOption)
    .option('--result <result>', 'only results callbacks with this result', resultOption)
    .option('--json', 'machine-readable report')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      const { direction, depositId, userId, verdict } = exchangeFilterQuery(opts);
      const request: ReverifyRequest = {
        query: {
          ...(direction !== undefined ? { direction } : {}),
          ...(depositId !== undefined ? { depositId } : {}),
          ...(userId !== undefined ? { userId } : {}),
          ...(verdict !== undefined ? { verdict } : {}),
          ...(opts.kind !== undefined ? { kind: opts.kind } : {}),
          ...(opts.result !== undefined ? { result: opts.result } : {}),
        },
        ...(opts.ids !== undefined ? { ids: opts.ids as number[] } : {}),
        ...(opts.profile !== undefined ? { profile: String(opts.profile) } : {}),
      };
      await withDesk(opts, async (desk) => {
        const report = must(await desk.reverify(request));
        if (opts.json) printJson(report);
        else process.stdout.write(`${summary(report)}\n`);
      });
    });
}
