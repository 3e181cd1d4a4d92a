// The flags replay and send share (design/CLI.md): target, profile, body edits, signature mode and
// a custom secret from the environment; and how a sent exchange is printed.
import { Option, type Command } from 'commander';
import { notActedAnswer } from '../../shared/not-acted';
import type { ExchangeDetail, SendOptions } from '../../shared/model';
import { parseSetArgument } from '../../core/desk/shell-kit';
import { isSignatureMode, SIGNATURE_MODES } from '../../core/desk/shell-kit';
import { DeskFailure } from '../../core/desk/shell-kit';
import { NegativeAnswer, UsageError } from '../errors';
import { printJson, readBody, secretFromEnv } from '../io';
import { collect } from '../parse';
import { addCallbackPrefixOption, callbackPrefixOf } from '../callback-options';

export interface OutboundFlags {
  to?: string;
  profile?: string;
  set: string[];
  unset: string[];
  bodyFile?: string;
  signature?: string;
  secretEnv?: string;
  confirmProduction?: boolean;
  json?: boolean;
  callbackPrefix?: string;
  header?: string[];
  dropHeader?: string[];
}

export function addTargetOptions(cmd: Command): Command {
  return cmd
    .option('--to <url>', "the operator's base URL (default: the profile's operator URL)")
    .option('--profile <name>', 'profile whose secret and operator URL are used (default: the active one)');
}

export function addOutboundOptions(cmd: Command): Command {
  return addCallbackPrefixOption(addTargetOptions(cmd))
    .option('--set <path=value>', 'set a body field by dotted path; VALUE is JSON where it parses, else a string (repeatable)', collect, [])
    .option('--body-file <file>', 'replace the body with the raw bytes of FILE (- for stdin); --set edits apply after')
    .option('--unset <path>', 'remove a body field by dotted path (repeatable)', collect, [])
    .option('--header <header>', "add or replace a header: 'Name: value' (repeatable); naming x-server-authorization sends that value as given", collect, [])
    .option('--drop-header <name>', 'remove a header by name (repeatable)', collect, [])
    .addOption(new Option('--signature <mode>', `signature mode: ${SIGNATURE_MODES.join(', ')} (default resign)`))
    .option('--secret-env <var>', 'environment variable holding a secret to sign with for this call (never stored)')
    .option('--confirm-production', 'confirm sending with a profile marked production')
    .option('--json', 'print the recorded exchange as JSON');
}

/** 'Name: value' as --header takes it; the value keeps its inner spaces, trimmed at the ends. */
function parseHeaderArgument(arg: string): [string, string] {
  const colon = arg.indexOf(':');
  if (colon <= 0) throw new UsageError(`--header expects 'Name: value', got "${arg}".`);
  return [arg.slice(0, colon).trim(), arg.slice(colon + 1).trim()];
}

/** Turns the flags into the desk's send options and body edits. Usage errors exit 2. */
export async function outboundRequest(
  flags: OutboundFlags,
): Promise<SendOptions & { set: Array<{ path: string; value: unknown }>; unset: string[]; bodyBase64?: string }> {
  const mode = flags.signature ?? 'resign';
  if (!isSignatureMode(mode)) throw new UsageError(`--signature ${mode}: use one of ${SIGNATURE_MODES.join(', ')}`);
  if (mode === 'custom' && flags.secretEnv === undefined) throw new UsageError('--signature custom needs --secret-env VAR');
  const customSecret = flags.secretEnv !== undefined ? secretFromEnv('--secret-env', flags.secretEnv) : undefined;
  let set: Array<{ path: string; value: unknown }>;
  let headers: Array<[string, string]>;
  try {
    set = (flags.set ?? []).map(parseSetArgument);
    headers = (flags.header ?? []).map(parseHeaderArgument);
  } catch (err) {
    throw new UsageError(err instanceof DeskFailure ? err.message : String(err));
  }
  const drop = flags.dropHeader ?? [];
  return {
    ...(flags.to !== undefined ? { to: flags.to } : {}),
    ...(flags.profile !== undefined ? { profile: flags.profile } : {}),
    signature: mode,
    ...(customSecret !== undefined ? { customSecret } : {}),
    ...(flags.confirmProduction ? { confirmedProduction: true } : {}),
    ...callbackPrefixOf(flags),
    ...(headers.length > 0 || drop.length > 0
      ? { headerEdits: { ...(headers.length > 0 ? { set: headers } : {}), ...(drop.length > 0 ? { drop } : {}) } }
      : {}),
    set,
    unset: flags.unset ?? [],
    ...(flags.bodyFile !== undefined ? { bodyBase64: (await readBody(flags.bodyFile)).toString('base64') } : {}),
  };
}

/** Prints a sent exchange; no HTTP answer is a negative answer (exit 1). */
export function reportSent(x: ExchangeDetail, mode: string, json: boolean | undefined): void {
  if (json) printJson(x);
  else {
    const out = (line: string) => process.stdout.write(`${line}\n`);
    out(`exchange ${x.id}: ${x.method} ${x.target ?? x.path}${x.sourceId !== null ? ` (from exchange ${x.sourceId})` : ''}`);
    out(`signature: ${mode}, ${x.signature.verdict ?? 'none'}`);
    for (const f of x.findings.filter((f) => f.level === 'error')) out(`finding: ${f.path} ${f.message}`);
    if (x.response) {
      const notActed = notActedAnswer(x);
      out(`answer: ${x.response.status}${notActed ? ' (not acted on)' : ''} in ${x.durationMs ?? '?'} ms`);
      if (notActed) out(`warning: ${notActed}`);
      const body = Buffer.from(x.response.bodyBase64, 'base64').toString('utf8');
      if (body !== '') out(body);
    }
  }
  if (!x.response) throw new NegativeAnswer(`no answer: ${x.error ?? 'unknown error'}`);
}
