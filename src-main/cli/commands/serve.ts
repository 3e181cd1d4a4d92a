// `wager-desk serve`: the capture proxy and the web UI until SIGINT or SIGTERM.
// The `proxy:` line is printed the moment the listener is up: scripts and tests wait for it.
import { InvalidArgumentError, type Command } from 'commander';
import type { Desk } from '../../core/desk';
import { DEFAULT_PROXY_HOST, DEFAULT_PROXY_PORT } from '../../core/desk/shell-kit';
import type { DeskStatus, ExchangeEvent, ProxyConfig, ProxyStatus } from '../../shared/model';
import { UsageError } from '../errors';
import { must, withDesk } from '../context';
import { secretFromEnv } from '../io';
import { httpUrl, port, positiveInt } from '../parse';
import { callbackPrefix } from '../callback-options';
import { startWebUi } from '../web';
import { exchangeJsonLine, exchangeLine, isComplete } from '../exchange-line';

const DEFAULT_UI_PORT = 0;

function until(signals: NodeJS.Signals[]): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const handlers = signals.map((signal) => {
      const handler = (): void => {
        for (const [s, h] of handlers) process.off(s, h);
        resolve(signal);
      };
      process.on(signal, handler);
      return [signal, handler] as const;
    });
  });
}

/** Every `serve` option, as the proxy's configuration: a restart from the UI keeps what it does not change. */
function startOptions(opts: Record<string, unknown>): Partial<ProxyConfig> {
  const options: Partial<ProxyConfig> = {
    host: (opts.host as string | undefined) ?? DEFAULT_PROXY_HOST,
    port: (opts.proxyPort as number | undefined) ?? DEFAULT_PROXY_PORT,
  };
  if (opts.upstream !== undefined) options.upstream = opts.upstream as string;
  if (opts.profile !== undefined) options.profile = opts.profile as string;
  if (opts.callbackPrefix !== undefined) options.callbackPrefix = opts.callbackPrefix as string;
  if (opts.secretEnv !== undefined) {
    const name = opts.secretEnv as string;
    options.secret = { label: `--secret-env ${name}`, secret: secretFromEnv('--secret-env', name) };
  }
  if (opts.upstreamTimeout !== undefined) options.upstreamTimeoutMs = opts.upstreamTimeout as number;
  if (opts.maxBody !== undefined) options.maxBodyBytes = opts.maxBody as number;
  if (opts.headersTimeout !== undefined) options.headersTimeoutMs = opts.headersTimeout as number;
  if (opts.requestTimeout !== undefined) options.requestTimeoutMs = opts.requestTimeout as number;
  if (opts.keepAliveTimeout !== undefined) options.keepAliveTimeoutMs = opts.keepAliveTimeout as number;
  if (opts.maxHeaderSize !== undefined) options.maxHeaderBytes = opts.maxHeaderSize as number;
  if (opts.tlsHandshakeTimeout !== undefined) options.tlsHandshakeTimeoutMs = opts.tlsHandshakeTimeout as number;
  if (opts.maxConnections !== undefined) options.maxConnections = opts.maxConnections as number;
  const tls = tlsOption(opts);
  if (tls !== undefined) options.tls = tls;
  if (opts.publicUrl !== undefined) options.publicUrl = opts.publicUrl as string;
  return options;
}

function tlsOption(opts: Record<string, unknown>): ProxyConfig['tls'] | undefined {
  const cert = opts.tlsCert as string | undefined;
  const key = opts.tlsKey as string | undefined;
  const hosts = opts.tlsSelfSigned as string | undefined;
  if (hosts !== undefined && (cert !== undefined || key !== undefined))
    throw new UsageError('--tls-self-signed makes its own certificate: give it, or --tls-cert with --tls-key, not both.');
  if ((cert === undefined) !== (key === undefined))
    throw new UsageError('--tls-cert and --tls-key go together: the certificate and its private key, both PEM files.');
  if (hosts !== undefined)
    return {
      selfSigned: hosts
        .split(',')
        .map((h) => h.trim())
        .filter((h) => h !== ''),
    };
  if (cert !== undefined && key !== undefined) return { certFile: cert, keyFile: key };
  return undefined;
}

/** What a person configuring the platform needs: the certificate to trust, and the exact callback URLs. */
export function reachLines(status: ProxyStatus): string[] {
  const lines: string[] = [];
  const tls = status.tls;
  if (tls) {
    const what = tls.source === 'self-signed' ? `self-signed for ${tls.hosts.join(', ')}` : `for ${tls.hosts.join(', ') || 'no name'}`;
    lines.push(`tls: ${tls.certFile} (${what}, until ${tls.validTo.slice(0, 10)}) SHA-256 ${tls.fingerprint256}`);
  }
  if (status.publicUrl) lines.push(`public: ${status.publicUrl}`);
  const served = status.profileCallbackUrls ?? [];
  if (served.length > 1) {
    // One proxy for every profile: each operator's callbacks under its own prefix.
    for (const p of served) lines.push(`callback ${p.profile ?? '(no profile)'}: ${p.pay} ${p.results}`);
  } else if (status.callbackUrls) {
    lines.push(`callback pay: ${status.callbackUrls.pay}`);
    lines.push(`callback results: ${status.callbackUrls.results}`);
  }
  return lines;
}

/** Ids printed lately: a row is announced again when it changes after completing (findings added, judged again). */
const PRINTED_KEPT = 10_000;

/**
 * The desk's own events, not the database: a row is announced per commit, complete or not; it is printed
 * once, when complete, as `tail` prints it.
 */
function printEachExchange(desk: Desk, json: boolean): void {
  const printed = new Set<number>();
  desk.on((name, payload) => {
    if (name !== 'exchange') return;
    const x = (payload as ExchangeEvent).exchange;
    if (!isComplete(x) || printed.has(x.id)) return;
    printed.add(x.id);
    if (printed.size > PRINTED_KEPT) printed.delete(printed.values().next().value!);
    process.stdout.write(`${json ? exchangeJsonLine(x) : exchangeLine(x)}\n`);
  });
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the capture proxy (and the web UI unless --no-ui) until SIGINT/SIGTERM')
    .option('--proxy-port <n>', `proxy port (default ${DEFAULT_PROXY_PORT}; 0 picks a free port)`, port)
    .option('--ui-port <m>', 'web UI port on 127.0.0.1 (default: a free port)', port)
    .option('--host <h>', `address the proxy listens on (default ${DEFAULT_PROXY_HOST}; anything else exposes it)`, (v: string) => {
      if (v.trim() === '') throw new InvalidArgumentError('expected a host name or address');
      return v;
    })
    .option('--upstream <url>', "forward to this operator base URL (default: the profile's upstream; none: the sandbox operator answers)", httpUrl)
    .option('--secret-env <var>', 'environment variable that holds the secret to verify signatures with (kept in memory only)')
    .option('--profile <name>', "verify with this profile's secret and forward to its upstream (default: the active profile)")
    .option(
      '--callback-prefix <path>',
      "judge POSTs at <path>/pay and <path>/results as the callbacks, for this run (default: the profile's prefix)",
      callbackPrefix,
    )
    .option('--upstream-timeout <ms>', 'answer 504 when the upstream takes longer (default 30000)', positiveInt)
    .option('--max-body <bytes>', 'largest request body kept; beyond it 413 (default 1048576)', positiveInt)
    .option('--headers-timeout <ms>', 'time a client has to send its request headers; beyond it 408 (default 10000)', positiveInt)
    .option('--request-timeout <ms>', 'time a client has to send its whole request; beyond it 408 (default 30000)', positiveInt)
    .option('--keep-alive-timeout <ms>', 'how long an idle keep-alive connection stays open (default 5000)', positiveInt)
    .option('--max-header-size <bytes>', 'largest request header block; beyond it 431 (default 16384)', positiveInt)
    .option(
      '--tls-handshake-timeout <ms>',
      'time a client has to complete the TLS handshake; beyond it the connection is closed and recorded (default 10000)',
      positiveInt,
    )
    .option('--max-connections <n>', 'open connections at most; beyond it the oldest idle one is closed (default 800)', positiveInt)
    .option('--tls-cert <file>', 'serve HTTPS with this PEM certificate (with --tls-key)')
    .option('--tls-key <file>', 'the PEM private key of --tls-cert')
    .option('--tls-self-signed <hosts>', 'serve HTTPS with a self-signed certificate for these comma-separated names and addresses, kept in the data directory')
    .option(
      '--public-url <url>',
      "the address the platform calls (a tunnel's, a host's): the callback URLs shown are made from it (default: the profile's)",
      httpUrl,
    )
    .option('--no-ui', 'do not start the web UI')
    .option('--tail', 'print each exchange as it completes, one line each (as `wager-desk tail --all` does)')
    .option('--tail-json', 'as --tail, one JSON object per line')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      const options = startOptions(opts);
      // Listen for the signals before the proxy line goes out: a script may send one the moment it reads it.
      const stopRequested = until(['SIGINT', 'SIGTERM']);
      await withDesk(opts, async (desk) => {
        if (opts.tail || opts.tailJson) printEachExchange(desk, Boolean(opts.tailJson));
        // A refusal (unknown profile, port in use, bad upstream) is a desk error: must() makes it exit 2.
        const { proxy: status, exchangeLog } = must(await desk.startProxy(options));
        process.stdout.write(`proxy: ${status.url}\n`);
        process.stderr.write(status.mode === 'forward' ? `mode: forward to ${status.upstream}\n` : 'mode: sandbox operator\n');
        if (exchangeLog) process.stderr.write(`exchange log: ${exchangeLog}\n`);
        if (status.warning) process.stderr.write(`warning: ${status.warning}\n`);
        for (const line of reachLines(status)) process.stdout.write(`${line}\n`);
        // A warning that arises while serving (a capture that could not be written, requests that could
        // not be judged) is printed when it changes, so a headless run does not hide it until a restart.
        let lastWarning = status.warning;
        // Status events only: a listener of every event would make each capture build its row's summary.
        const offStatus = desk.on(
          (name, payload) => {
            if (name !== 'status') return;
            const warning = (payload as DeskStatus).proxy.warning;
            if (warning !== null && warning !== lastWarning) process.stderr.write(`warning: ${warning}\n`);
            lastWarning = warning;
          },
          ['status'],
        );

        let ui: { url: string; close(): Promise<void> } | null = null;
        if (opts.ui !== false) {
          ui = await startWebUi(desk, { port: (opts.uiPort as number | undefined) ?? DEFAULT_UI_PORT, host: '127.0.0.1' });
          process.stdout.write(`ui: ${ui.url}\n`);
        }

        await stopRequested;
        offStatus();
        await ui?.close();
        // desk.close() (withDesk) stops the proxy: exchanges in flight get a short grace to finish.
      });
    });
}
