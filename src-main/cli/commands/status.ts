// `wager-desk status`: the data directory, where the secrets' key comes from and whether it opens them,
// the active profile and the log's counts. The proxy is not part of it: this process runs none, and a
// `serve` elsewhere has its own.
import type { Command } from 'commander';
import type { SecretsKeySource } from '../../shared/model';
import { must, withDesk } from '../context';
import { printJson } from '../io';

/** Where the key comes from, in words: the file and what named it, or the variable; never the key. */
export function keySourceLine(source: SecretsKeySource): string {
  if (source.from === 'environment') return `from ${source.namedBy ?? 'the environment'}`;
  if (source.from === 'given-file') return `${source.file} (given by ${source.namedBy})`;
  return `${source.file} (the data directory's own)`;
}

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description("the data directory, where the secrets' key comes from and whether it opens them, the active profile, the counts")
    .option('--json', 'machine-readable output')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      await withDesk(opts, async (desk) => {
        const status = must(await desk.getStatus());
        const { dataDir, secretsKey, secretsKeyProblem, activeProfile, counts, exchangeLog, exchangeLogProblem } = status;
        if (opts.json) {
          printJson({
            dataDir,
            secretsKey,
            secretsKeyProblem,
            activeProfile,
            // Unread is not zero: while the log cannot be read there are no counts to give.
            counts: exchangeLogProblem ? null : counts,
            ...(exchangeLog ? { exchangeLog } : {}),
            ...(exchangeLogProblem ? { exchangeLogProblem } : {}),
          });
          return;
        }
        const lines = [
          `data dir: ${dataDir}`,
          `key: ${keySourceLine(secretsKey)}`,
          secretsKeyProblem === null ? 'secrets: the key opens every stored secret' : `secrets: ${secretsKeyProblem}`,
          `active profile: ${activeProfile ?? 'none'}`,
          `exchange log: ${exchangeLog ?? "the data directory's SQLite file"}${exchangeLogProblem ? ` (cannot be read now: ${exchangeLogProblem})` : ''}`,
          exchangeLogProblem
            ? 'exchanges: not counted (the exchange log cannot be read now)'
            : `exchanges: ${counts.inbound} inbound, ${counts.outbound} outbound`,
        ];
        process.stdout.write(`${lines.join('\n')}\n`);
      });
    });
}
