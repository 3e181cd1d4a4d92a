// `wager-desk redeliver [filters]`: sends captured callbacks again, oldest first, paced, each recorded
// as an outbound exchange linked to its capture. A capture already redelivered with a 2XX answer is
// skipped (unless --again), so Ctrl+C stops the run after the send in flight and running the same
// command again resumes it.
import { InvalidArgumentError, type Command } from 'commander';
import { Presets, SingleBar } from 'cli-progress';
import type { RedeliveryFilter, RedeliveryReport, RedeliveryRequest } from '../../shared/model';
import { parseIdRanges, resolveTime } from '../../shared/redelivery-filter';
import { must, withDesk } from '../context';
import { amountsOfProfiles, exchangeTable, type ExchangeTable } from '../exchange-table';
import { NegativeAnswer, UsageError } from '../errors';
import { printJson } from '../io';
import { httpUrl, verdict } from '../parse';

interface RedeliverFlags {
  failed?: boolean;
  since?: string;
  until?: string;
  deposit?: string;
  user?: string;
  kind?: 'pay' | 'results';
  verdict?: RedeliveryFilter['verdict'];
  ids?: Array<[number, number]>;
  to?: string;
  profile?: string;
  rate?: number;
  signature?: 'keep' | 'resign';
  again?: boolean;
  stopOnFailure?: boolean;
  resignInvalid?: boolean;
  dryRun?: boolean;
  confirmProduction?: boolean;
  json?: boolean;
  home?: string;
}

function idList(value: string): Array<[number, number]> {
  try {
    return parseIdRanges(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

function timeArg(value: string): string {
  try {
    resolveTime(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
  return value;
}

function rateArg(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected sends per second, more than 0');
  return n;
}

function kindArg(value: string): 'pay' | 'results' {
  if (value !== 'pay' && value !== 'results') throw new InvalidArgumentError('expected pay or results');
  return value;
}

function signatureArg(value: string): 'keep' | 'resign' {
  if (value !== 'keep' && value !== 'resign') throw new InvalidArgumentError('expected keep or resign');
  return value;
}

function filterOf(opts: RedeliverFlags): RedeliveryFilter {
  return {
    ...(opts.failed ? { failed: true } : {}),
    ...(opts.since !== undefined ? { since: opts.since } : {}),
    ...(opts.until !== undefined ? { until: opts.until } : {}),
    ...(opts.deposit !== undefined ? { depositId: opts.deposit } : {}),
    ...(opts.user !== undefined ? { userId: opts.user } : {}),
    ...(opts.kind !== undefined ? { kind: opts.kind } : {}),
    ...(opts.verdict !== undefined ? { verdict: opts.verdict } : {}),
    ...(opts.ids !== undefined ? { idRanges: opts.ids } : {}),
    ...(opts.again ? { again: true } : {}),
    ...(opts.profile !== undefined ? { profile: opts.profile } : {}),
  };
}

const PREVIEW_COLUMNS = ['id', 'at', 'kind', 'verdict', 'status', 'depositId', 'userId'] as const;

function summary(r: RedeliveryReport): string {
  const end = r.stopped === 'user' ? ' (stopped: run the same command again to resume)' : r.stopped === 'failure' ? ' (stopped at the first failure)' : '';
  const refused =
    r.resignRefused > 0
      ? `\nnot re-signed: ${r.resignRefused} capture${r.resignRefused === 1 ? '' : 's'} whose captured signature was not valid (counted in skipped; --resign-invalid re-signs them too)`
      : '';
  return `redelivered to ${r.target}: selected ${r.selected}, sent ${r.sent}, 2XX ${r.ok}, failed ${r.failed}, skipped ${r.skipped}${end}${refused}`;
}

export function registerRedeliver(program: Command): void {
  program
    .command('redeliver')
    .description('send captured callbacks again (those that failed, or a time window), oldest first, paced, with their captured signatures')
    .option('--failed', 'only captures whose forward got no 2XX answer, or no answer at all')
    .option('--since <time>', 'only captures at or after TIME (ISO 8601, or relative: 2h, 30m, 1d)', timeArg)
    .option('--until <time>', 'only captures before TIME (ISO 8601, or relative)', timeArg)
    .option('--deposit <id>', 'only this depositId')
    .option('--user <id>', 'only this userId')
    .option('--kind <kind>', 'only pay or results', kindArg)
    .option('--verdict <verdict>', 'only this signature verdict', verdict)
    .option('--ids <list>', 'only these exchange ids: 12,15-20', idList)
    .option('--to <url>', "the operator's base URL (default: the profile's operator URL)", httpUrl)
    .option('--profile <name>', "whose captures: sent with that profile's operator URL and secret (default: the active one)")
    .option('--rate <n>', 'at most N sends per second (default 10)', rateArg)
    .option('--signature <mode>', "keep (default: the platform's own signature bytes) or resign (with the profile's secret)", signatureArg)
    .option('--again', 'also send captures already redelivered with a 2XX answer')
    .option('--stop-on-failure', 'stop at the first send without a 2XX answer')
    .option('--resign-invalid', 'with --signature resign: re-sign captures whose captured signature was not valid too (refused and counted without it)')
    .option('--dry-run', 'list what would be sent, and send nothing')
    .option('--confirm-production', 'confirm sending with a profile marked production')
    .option('--json', 'print the report (or, with --dry-run, the selection) as JSON')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals() as RedeliverFlags;
      const filter = filterOf(opts);
      await withDesk(opts, async (desk) => {
        if (opts.dryRun) return dryRun(desk, filter, opts.json === true);
        const request: RedeliveryRequest = {
          filter,
          ...(opts.to !== undefined ? { to: opts.to } : {}),
          ...(opts.profile !== undefined ? { profile: opts.profile } : {}),
          ...(opts.rate !== undefined ? { rate: opts.rate } : {}),
          ...(opts.signature !== undefined ? { signature: opts.signature } : {}),
          ...(opts.stopOnFailure ? { stopOnFailure: true } : {}),
          ...(opts.resignInvalid ? { resignInvalid: true } : {}),
          ...(opts.confirmProduction ? { confirmedProduction: true } : {}),
        };
        const report = await runWithProgress(desk, request);
        if (opts.json) printJson(report);
        else {
          process.stdout.write(`${summary(report)}\n`);
          for (const f of report.failures) {
            const deposit = f.depositId ? ` (deposit ${f.depositId})` : '';
            process.stdout.write(`failed: capture ${f.sourceId}${deposit} -> exchange ${f.exchangeId ?? '-'}: ${f.status ?? f.error ?? 'no answer'}\n`);
          }
        }
        if (report.failed > 0 || report.stopped !== null || report.resignRefused > 0) throw new NegativeAnswer();
      });
    });
}

type DeskLike = Parameters<Parameters<typeof withDesk>[1]>[0];

async function dryRun(desk: DeskLike, filter: RedeliveryFilter, json: boolean): Promise<void> {
  let afterId: number | undefined;
  let first = true;
  let table: ExchangeTable | null = null;
  if (json) process.stdout.write('{"captures":[');
  for (;;) {
    const page = must(await desk.selectRedelivery(filter, { limit: 1000, ...(afterId !== undefined ? { afterId } : {}) }));
    if (first && !json) {
      process.stdout.write(`would send ${page.count} captures (skipped ${page.skipped} already redelivered)\n`);
      if (page.items.length > 0) {
        table = exchangeTable(page.items, PREVIEW_COLUMNS, amountsOfProfiles(must(await desk.listProfiles())));
        process.stdout.write(table.header);
      }
    }
    if (!json) process.stdout.write(table?.rows(page.items) ?? '');
    else
      for (const x of page.items) {
        process.stdout.write(`${first ? '' : ','}\n${JSON.stringify(x)}`);
        first = false;
      }
    first = false;
    if (json && page.nextAfterId === null) process.stdout.write(`\n],"count":${page.count},"skipped":${page.skipped}}\n`);
    if (page.nextAfterId === null) return;
    afterId = page.nextAfterId;
  }
}

/** Runs the redelivery; Ctrl+C stops it after the send in flight; a bar on stderr when it is a terminal. */
async function runWithProgress(desk: DeskLike, request: RedeliveryRequest): Promise<RedeliveryReport> {
  const runId = `cli-${process.pid}-${Date.now()}`;
  const bar = process.stderr.isTTY
    ? new SingleBar(
        { format: 'redeliver [{bar}] {value}/{total} | 2XX {ok} | failed {failed} | {eta_formatted} left', stream: process.stderr, hideCursor: true },
        Presets.shades_classic,
      )
    : null;
  let started = false;
  const off = desk.on((name, payload) => {
    if (name !== 'redeliver-progress' || bar === null) return;
    const p = payload as import('../../shared/model').RedeliveryProgress;
    if (p.runId !== runId) return;
    if (!started) {
      bar.start(p.total, p.done, { ok: p.ok, failed: p.failed });
      started = true;
    } else bar.update(p.done, { ok: p.ok, failed: p.failed });
  });
  // The first Ctrl+C stops after the send in flight (resumable); a second one ends at once, a send hanging or not.
  let stopping = false;
  const stop = (): void => {
    if (stopping) process.exit(130);
    stopping = true;
    void desk.stopRedelivery(runId);
  };
  process.on('SIGINT', stop);
  try {
    const result = await desk.redeliver({ ...request, runId });
    if (!result.ok) throw new UsageError(result.error.message);
    return result.value;
  } finally {
    process.off('SIGINT', stop);
    off();
    if (started) bar?.stop();
  }
}
