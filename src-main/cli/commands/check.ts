import { existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { checkJson, checkLine, countsLine, runIdsPrefix } from '../../core/desk/shell-kit';
import type { AmountsMode, CheckResult } from '../../shared/model';
import { addCallbackPrefixOption, amountsMode, callbackPrefixOf, concurrency, positiveAmount } from '../callback-options';
import { must, withDesk } from '../context';
import { NegativeAnswer, NotObservedAnswer, UsageError } from '../errors';
import { printJson, secretFromEnv } from '../io';
import { addTargetOptions } from './outbound-options';

/** A file option whose folder is missing is refused before the run, not after minutes of checks. */
function reportFileProblem(option: string, file: string | undefined): string | null {
  if (file === undefined) return null;
  const folder = dirname(resolve(file));
  return existsSync(folder) && statSync(folder).isDirectory() ? null : `${option} ${file}: the folder ${folder} does not exist`;
}

function writeReportFile(file: string, text: string): void {
  try {
    writeFileSync(file, text);
  } catch (err) {
    throw new UsageError(`cannot write ${file}: ${(err as Error).message}`);
  }
}

export function registerCheck(program: Command): void {
  const cmd = program
    .command('check')
    .description(
      "run the conformance checks against an operator's callback endpoints; exit 0 when every check passed (warnings included), 1 when one failed or is blocked, 3 when nothing failed but some are not observable or inconclusive",
    )
    .requiredOption('--user-id <id>', 'a test user the operator knows, with some balance');
  addCallbackPrefixOption(addTargetOptions(cmd))
    .option('--amounts <mode>', "how the operator writes amounts, for this run: integer (minor units) or decimal (default: the profile's)", amountsMode)
    .option('--stake <amount>', 'the amount of every pay the checks send (default 100 on integer profiles, 1.5 on decimal ones)', positiveAmount)
    .option('--concurrency <n>', 'how many identical requests the concurrent-duplicate checks send at once (default 5)', concurrency)
    .option(
      '--balance-url <url>',
      "the target's balance endpoint for this run ({userId} stands for the user); a run --to another server never reads the profile's probe",
    )
    .option('--balance-path <path>', "JSONPath to the balance in that endpoint's answer (default: the profile's probe path, else $.balance)")
    .option('--secret-env <var>', "environment variable holding the signing secret (default: the profile's)")
    .option('--confirm-production', 'confirm running against a profile marked production')
    .option('--json', 'print {headline, passed, failed, blocked, notObservable, checks: [{id, rule, outcome, evidence, ...}]} as JSON')
    .option('--junit <file>', 'also write the report as JUnit XML (one testcase per check) for a CI')
    .option('--html <file>', 'also write the report as one self-contained HTML page (no script, no network)')
    .action(async (_opts, command: Command) => {
      const opts = command.optsWithGlobals() as {
        to?: string;
        profile?: string;
        userId: string;
        secretEnv?: string;
        confirmProduction?: boolean;
        json?: boolean;
        junit?: string;
        html?: string;
        home?: string;
        callbackPrefix?: string;
        amounts?: AmountsMode;
        stake?: number;
        concurrency?: number;
        balanceUrl?: string;
        balancePath?: string;
      };
      const fileProblem = reportFileProblem('--junit', opts.junit) ?? reportFileProblem('--html', opts.html);
      if (fileProblem) throw new UsageError(fileProblem);
      const customSecret = opts.secretEnv !== undefined ? secretFromEnv('--secret-env', opts.secretEnv) : undefined;
      await withDesk(opts, async (desk) => {
        // Lines appear as each check finishes: a slow operator shows where it is.
        let headlineShown = false;
        const off = opts.json
          ? () => {}
          : desk.on((name, payload) => {
              if (name !== 'check-progress') return;
              const progress = payload as { result: CheckResult; headline?: string; budget?: string };
              if (progress.headline && !headlineShown) {
                headlineShown = true;
                process.stdout.write(`${progress.headline}\n`);
              }
              if (progress.budget) process.stdout.write(`${progress.budget}\n`);
              process.stdout.write(`${checkLine(progress.result)}\n`);
            });
        const report = must(
          await desk.runCheck({
            userId: opts.userId,
            ...(opts.to !== undefined ? { to: opts.to } : {}),
            ...(opts.profile !== undefined ? { profile: opts.profile } : {}),
            ...(customSecret !== undefined ? { customSecret } : {}),
            ...(opts.confirmProduction ? { confirmedProduction: true } : {}),
            ...callbackPrefixOf(opts),
            ...(opts.amounts !== undefined ? { amounts: opts.amounts } : {}),
            ...(opts.stake !== undefined ? { stake: opts.stake } : {}),
            ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}),
            ...(opts.balanceUrl !== undefined ? { balanceUrl: opts.balanceUrl } : {}),
            ...(opts.balancePath !== undefined ? { balancePath: opts.balancePath } : {}),
          }),
        );
        off();
        // Written before the exit code is decided: a CI reads the files of a failed run most of all.
        if (opts.junit !== undefined) writeReportFile(opts.junit, must(await desk.exportCheckReport(report.id, 'junit')));
        if (opts.html !== undefined) writeReportFile(opts.html, must(await desk.exportCheckReport(report.id, 'html')));
        if (opts.json) printJson(checkJson(report));
        else {
          process.stdout.write(`checked ${report.target}; money read from ${report.moneySource ?? 'nowhere'}\n`);
          // The headline goes last too: progress lines have scrolled it away by the end of a run.
          if (report.headline) process.stdout.write(`${report.headline}\n`);
          if (report.refusal) process.stdout.write(`why the operator refused a correctly signed callback: ${report.refusal.explanation}\n`);
          process.stdout.write(`${countsLine(report)}; report ${report.id}, ids ${report.runId ? runIdsPrefix(report.runId) : 'wd-'}*\n`);
        }
        if (report.failed > 0 || (report.blocked ?? 0) > 0) throw new NegativeAnswer();
        // Inconclusive refusals, like money not observed, are neither a pass nor a failure; warnings never fail a run.
        if (report.notObservable > 0 || (report.inconclusive ?? 0) > 0) throw new NotObservedAnswer();
      });
    });
}
