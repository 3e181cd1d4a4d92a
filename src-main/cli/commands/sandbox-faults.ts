// `wager-desk sandbox fault add|list|clear`: faults the capture proxy applies to callbacks, in sandbox
// and in forward mode. They live in the database, so a `serve` running in another process applies them.
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { FaultAction, ProxyFault, ProxyFaultInput } from '../../shared/model';
import { must, withDesk } from '../context';
import { UsageError } from '../errors';
import { printJson } from '../io';
import { positiveInt } from '../parse';

function httpStatus(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 100 || n > 599) throw new InvalidArgumentError('expected an HTTP status from 100 to 599');
  return n;
}

function milliseconds(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number of milliseconds');
  return n;
}

function share(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !(n > 0 && n <= 1)) throw new InvalidArgumentError('expected a share above 0 and up to 1 (0.25 faults one request in four)');
  return n;
}

interface AddFlags {
  path?: 'pay' | 'results';
  status?: number;
  body?: string;
  delay?: number;
  timeout?: boolean;
  reset?: boolean;
  count?: number;
  ratio?: number;
  json?: boolean;
}

function actionOf(flags: AddFlags): FaultAction {
  const given = [flags.status !== undefined, flags.delay !== undefined, flags.timeout === true, flags.reset === true].filter(Boolean).length;
  if (given !== 1) throw new UsageError('sandbox fault add: give exactly one of --status CODE, --delay MS, --timeout, --reset');
  if (flags.body !== undefined && flags.status === undefined) throw new UsageError('--body goes with --status');
  if (flags.status !== undefined)
    return flags.body !== undefined ? { type: 'status', status: flags.status, body: flags.body } : { type: 'status', status: flags.status };
  if (flags.delay !== undefined) return { type: 'delay', ms: flags.delay };
  return flags.timeout ? { type: 'timeout' } : { type: 'reset' };
}

function describeAction(a: FaultAction): string {
  if (a.type === 'status') return `answer ${a.status}${a.body !== undefined ? ` ${a.body}` : ''}`;
  if (a.type === 'delay') return `delay ${a.ms} ms`;
  return a.type === 'timeout' ? 'timeout (no answer)' : 'reset (TCP RST)';
}

/** One line per fault: `3  pay  answer 503  next 2 (applied 0 of 2)`. */
export function faultLine(f: ProxyFault): string {
  const scope = f.count !== null ? `next ${f.count}` : f.ratio !== null ? `ratio ${f.ratio}` : 'every';
  const state = f.spent ? 'spent' : `applied ${f.applied} of ${f.matched} matched`;
  return `${f.id}  ${f.path ?? 'pay+results'}  ${describeAction(f.action)}  ${scope}  ${state}`;
}

export function registerFaults(sandbox: Command): void {
  const fault = sandbox.command('fault').description('faults the capture proxy applies to callbacks (sandbox and forward mode)');

  fault
    .command('add')
    .description('add a fault: one of --status, --delay, --timeout, --reset; for every matching callback, the next N, or a share')
    .addOption(new Option('--path <kind>', 'only pay or only results callbacks (default: both)').choices(['pay', 'results']))
    .option('--status <code>', 'answer this HTTP status instead (the operator is not asked)', httpStatus)
    .option('--body <json>', 'the body of the --status answer (JSON)')
    .option('--delay <ms>', 'wait this long before answering (sandbox) or before forwarding', milliseconds)
    .option('--timeout', "never answer: hold the connection until the client gives up (at most the proxy's request timeout)")
    .option('--reset', 'cut the connection with a TCP reset')
    .option('--count <n>', 'apply to the next N matching callbacks, then the fault is spent', positiveInt)
    .option('--ratio <p>', 'apply to this share of the matching callbacks (counted, evenly spread)', share)
    .option('--json', 'machine-readable output')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals() as AddFlags & { home?: string };
      const action = actionOf(opts);
      if (opts.count !== undefined && opts.ratio !== undefined) throw new UsageError('sandbox fault add: --count and --ratio exclude each other');
      if (opts.body !== undefined) {
        try {
          JSON.parse(opts.body);
        } catch {
          throw new UsageError('--body: expected JSON');
        }
      }
      const input: ProxyFaultInput = {
        action,
        ...(opts.path !== undefined ? { path: opts.path } : {}),
        ...(opts.count !== undefined ? { count: opts.count } : {}),
        ...(opts.ratio !== undefined ? { ratio: opts.ratio } : {}),
      };
      await withDesk(opts, async (desk) => {
        const added = must(await desk.addFault(input));
        if (opts.json) printJson(added);
        else process.stdout.write(`fault ${faultLine(added)}\n`);
      });
    });

  fault
    .command('list')
    .description('list the faults, spent ones included')
    .option('--json', 'machine-readable output')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      await withDesk(opts, async (desk) => {
        const faults = must(await desk.listFaults());
        if (opts.json) printJson(faults);
        else process.stdout.write(faults.length === 0 ? 'faults: none\n' : `${faults.map(faultLine).join('\n')}\n`);
      });
    });

  fault
    .command('clear')
    .description('remove every fault')
    .action(async (_opts, cmd: Command) => {
      await withDesk(cmd.optsWithGlobals(), async (desk) => {
        const n = must(await desk.clearFaults());
        process.stdout.write(`faults cleared: ${n}\n`);
      });
    });
}
