// `wager-desk prune`: the retention command. Deletes old exchanges by age and/or count and keeps the
// database compact (see core/store/retention.ts for how, and docs/LIMITS.md for when to use which).
import { InvalidArgumentError, type Command } from 'commander';
import type { PruneOptions, PruneReport } from '../../shared/model';
import { withDesk } from '../context';
import { UsageError } from '../errors';
import { printJson } from '../io';

function days(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError('expected a number of days of 0 or more');
  return n;
}

function count(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number of 0 or more');
  return n;
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function render(r: PruneReport): string {
  const lines = [`pruned ${r.deleted} exchange${r.deleted === 1 ? '' : 's'} (${r.remaining} left)`];
  if (r.detached > 0) lines.push(`${r.detached} kept exchange${r.detached === 1 ? '' : 's'} lost the link to a pruned source`);
  lines.push(`database: ${size(r.bytesBefore)} -> ${size(r.bytesAfter)}${r.vacuumed ? ' (vacuumed)' : ''}`);
  if (!r.vacuumed && r.freePages > 0) lines.push(`${r.freePages} free pages stay in the file for new captures; --vacuum returns them to the disk`);
  if (!r.walTruncated) lines.push('the write-ahead log is still in use by another process (the app or serve): it shrinks when that one closes');
  return `${lines.join('\n')}\n`;
}

export function registerPrune(program: Command): void {
  program
    .command('prune')
    .description('delete old exchanges by age and/or count, and keep the database compact')
    .option('--older-than <days>', 'delete exchanges that started more than DAYS days ago (fractions allowed)', days)
    .option('--keep <n>', 'keep only the newest N exchanges', count)
    .option('--vacuum', 'rebuild the database file so freed space goes back to the disk (best with the app closed)')
    .option('--json', 'machine-readable output')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      if (opts.olderThan === undefined && opts.keep === undefined && !opts.vacuum) {
        throw new UsageError('prune: give --older-than DAYS, --keep N, or --vacuum');
      }
      const options: PruneOptions = {
        ...(opts.olderThan !== undefined ? { olderThanDays: opts.olderThan as number } : {}),
        ...(opts.keep !== undefined ? { keep: opts.keep as number } : {}),
        ...(opts.vacuum ? { vacuum: true } : {}),
      };
      await withDesk(opts, async (desk) => {
        // SQLite's own errors (busy, disk full) and the desk's: one line, exit 2. The deletion goes in
        // batches: a failed prune says how many rows it deleted before it failed.
        const result = await desk.prune(options);
        if (!result.ok) throw new UsageError(`prune: ${result.error.message.split('\n')[0]}`);
        const report = result.value;
        if (opts.json) printJson(report);
        else process.stdout.write(render(report));
      });
    });
}
