// `wager-desk edge-cases list|run`: the catalog of edge cases, and all of them (or some) sent in one go
// against an operator with a summary; exit 1 when one failed or is blocked.
import type { Command } from 'commander';
import {
  edgeCaseCountsLine,
  edgeCaseOutcome,
  edgeCasesSucceeded,
  OUTCOME_MARKS,
  summarizeEdgeCases,
  type EdgeCaseOutcome,
} from '../../shared/edge-case-summary';
import type { EdgeCaseRun } from '../../shared/model';
import { DEFAULT_TEST_USER } from '../../shared/model';
import { addCallbackPrefixOption, callbackPrefixOf, concurrency } from '../callback-options';
import { must, withDesk } from '../context';
import { NegativeAnswer, NotObservedAnswer, UsageError } from '../errors';
import { printJson, secretFromEnv } from '../io';
import { addTargetOptions } from './outbound-options';

const LABEL: Record<EdgeCaseOutcome, string> = { ...OUTCOME_MARKS, 'not-judged': 'NOT JUDGED' };

function caseLine(run: EdgeCaseRun): string {
  return `${LABEL[edgeCaseOutcome(run)]} ${run.caseId}  ${run.summary}`;
}

interface RunFlags {
  only?: string;
  userId?: string;
  to?: string;
  profile?: string;
  secretEnv?: string;
  confirmProduction?: boolean;
  callbackPrefix?: string;
  json?: boolean;
  home?: string;
  concurrency?: number;
}

export function registerEdgeCases(program: Command): void {
  const group = program.command('edge-cases').description('the catalog of edge cases, and running them against an operator');

  group
    .command('list')
    .description('list the edge cases: id, title, and what the spec expects')
    .option('--json', 'machine-readable output')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      await withDesk(opts, async (desk) => {
        const cases = must(await desk.listEdgeCases());
        if (opts.json) printJson(cases);
        else process.stdout.write(`${cases.map((c) => `${c.id}  ${c.title}${c.checkable ? '' : ' (not judged)'}`).join('\n')}\n`);
      });
    });

  const run = group
    .command('run')
    .description(
      'send every edge case (or --only some) to the operator, one after the other, and judge each; exit 0 when none failed, none is blocked and none is not observable, 1 when one failed or is blocked, 3 when only money went unobserved',
    )
    .option('--only <ids>', 'comma-separated case ids (default: every case)')
    .option('--user-id <id>', `the test user of the cases (default ${DEFAULT_TEST_USER})`);
  addCallbackPrefixOption(addTargetOptions(run))
    .option('--secret-env <var>', "environment variable holding the signing secret (default: the profile's)")
    .option('--concurrency <n>', 'how many identical requests a concurrent-duplicate case sends at once (default 5)', concurrency)
    .option('--confirm-production', 'confirm running against a profile marked production')
    .option('--json', 'print {passed, failed, blocked, notObservable, notJudged, cases: [...]} as JSON')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals() as RunFlags;
      const customSecret = opts.secretEnv !== undefined ? secretFromEnv('--secret-env', opts.secretEnv) : undefined;
      await withDesk(opts, async (desk) => {
        const catalog = must(await desk.listEdgeCases()).map((c) => c.id);
        let ids = catalog;
        if (opts.only !== undefined) {
          ids = opts.only
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== '');
          const unknown = ids.filter((id) => !catalog.includes(id));
          if (ids.length === 0 || unknown.length > 0)
            throw new UsageError(`--only: unknown case ${unknown.join(', ') || '(none given)'}; known: ${catalog.join(', ')}`);
        }
        const options = {
          ...(opts.userId !== undefined ? { userId: opts.userId } : {}),
          ...(opts.to !== undefined ? { to: opts.to } : {}),
          ...(opts.profile !== undefined ? { profile: opts.profile } : {}),
          ...(customSecret !== undefined ? { customSecret } : {}),
          ...(opts.confirmProduction ? { confirmedProduction: true } : {}),
          ...callbackPrefixOf(opts),
          ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}),
        };
        const runs: EdgeCaseRun[] = [];
        for (const id of ids) {
          const done = must(await desk.runEdgeCase(id, options));
          runs.push(done);
          // A line as each case finishes: a slow operator shows where it is.
          if (!opts.json) process.stdout.write(`${caseLine(done)}\n`);
        }
        const summary = summarizeEdgeCases(runs);
        if (opts.json) printJson({ ...summary, cases: runs });
        else process.stdout.write(`${edgeCaseCountsLine(summary)}\n`);
        if (!edgeCasesSucceeded(summary)) throw new NegativeAnswer();
        if (summary.notObservable > 0 || summary.inconclusive > 0) throw new NotObservedAnswer();
      });
    });
}
