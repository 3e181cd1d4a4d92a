import type { Command } from 'commander';
import { checkJson, checkLine } from '../../core/checks/report-export';
import type { CheckResult } from '../../shared/model';
import { must, withDesk } from '../context';
import { NegativeAnswer } from '../errors';
import { printJson, secretFromEnv } from '../io';
import { addTargetOptions } from './outbound-options';

export function registerCheck(program: Command): void {
  const cmd = program
    .command('check')
    .description("run the conformance checks against an operator's callback endpoints; exit 0 all pass, 1 any fail")
    .requiredOption('--user-id <id>', 'a test user the operator knows, with some balance');
  addTargetOptions(cmd)
    .option('--secret-env <var>', 'environment variable holding the signing secret (default: the profile\'s)')
    .option('--confirm-production', 'confirm running against a profile marked production')
    .option('--json', 'print {passed, failed, checks: [...]} as JSON')
    .action(async (_opts, command: Command) => {
      const opts = command.optsWithGlobals() as { to?: string; profile?: string; userId: string; secretEnv?: string; confirmProduction?: boolean; json?: boolean; home?: string };
      const customSecret = opts.secretEnv !== undefined ? secretFromEnv('--secret-env', opts.secretEnv) : undefined;
      await withDesk(opts, async (desk) => {
        // Lines appear as each check finishes: a slow operator shows where it is.
        const off = opts.json
          ? () => {}
          : desk.on((name, payload) => {
              if (name === 'check-progress') process.stdout.write(`${checkLine((payload as { result: CheckResult }).result)}\n`);
            });
        const report = must(
          await desk.runCheck({
            userId: opts.userId,
            ...(opts.to !== undefined ? { to: opts.to } : {}),
            ...(opts.profile !== undefined ? { profile: opts.profile } : {}),
            ...(customSecret !== undefined ? { customSecret } : {}),
            ...(opts.confirmProduction ? { confirmedProduction: true } : {}),
          }),
        );
        off();
        if (opts.json) printJson(checkJson(report));
        else {
          process.stdout.write(
            `${report.passed} passed, ${report.failed} failed, ${report.notObservable} not observable; report ${report.id}, ids wd-check-${report.runId}-*\n`,
          );
        }
        if (report.failed > 0) throw new NegativeAnswer();
      });
    });
}
