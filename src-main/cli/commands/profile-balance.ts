// The balance probe's flags of `profile set` and its lines in a profile's description: header values
// are credentials, so they are read from the environment where possible and shown only as set + fingerprint.
import { InvalidArgumentError, type Command } from 'commander';
import { maskedBalanceUrl, parseHeaderLine } from '../../core/desk/shell-kit';
import { BALANCE_UNITS, type BalanceUnits, type ProfileInput, type ProfileView, type SecretState } from '../../shared/model';
import { UsageError } from '../errors';
import { secretFromEnv } from '../io';
import { collect } from '../parse';

const secretText = (s: SecretState): string => (s.set ? `set (${s.fingerprint})` : 'unset');

/** The profile as printed: a query value of its balance URL may be a credential (?key=...), so each is masked. */
export function printableProfile(p: ProfileView): ProfileView {
  return p.balance.url === null ? p : { ...p, balance: { ...p.balance, url: maskedBalanceUrl(p.balance.url) } };
}

/** The balance probe, its header values as set + fingerprint only. */
export function balanceLines(p: ProfileView): string[] {
  const b = p.balance;
  if (b.url === null && b.path === null && b.answerPath === null && b.headers.length === 0 && !b.hmacKey.set) return [];
  const headers = b.headers.map((h) => `${h.name}: ${secretText(h.value)}`).join(', ');
  return [
    `    balance probe: ${b.url ?? '-'}   path: ${b.path ?? '-'}   units: ${b.units ?? (p.amounts === 'integer' ? 'minor' : 'major')}${headers ? `   headers: ${headers}` : ''}${b.hmacKey.set ? `   signing key: ${secretText(b.hmacKey)}` : ''}`,
    ...(b.answerPath ? [`    balance in answers: ${b.answerPath}`] : []),
  ];
}

function balanceUnits(value: string): BalanceUnits {
  if (!(BALANCE_UNITS as readonly string[]).includes(value)) throw new InvalidArgumentError(`expected ${BALANCE_UNITS.join(' or ')}`);
  return value as BalanceUnits;
}

/** The probe's headers from --balance-header 'Name: value' and --balance-header-env 'Name=VAR', in that order. */
function probeHeaders(lines: string[] | undefined, fromEnv: string[] | undefined): Array<[string, string]> | undefined {
  if (lines === undefined && fromEnv === undefined) return undefined;
  const given = (lines ?? []).map((line) => {
    try {
      return parseHeaderLine(line);
    } catch (err) {
      throw new UsageError(`--balance-header: ${(err as Error).message}`);
    }
  });
  const env = (fromEnv ?? []).map((pair): [string, string] => {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1)
      throw new UsageError(`--balance-header-env ${pair}: write Name=VAR (the header's name, then the environment variable that holds its value)`);
    const name = pair.slice(0, eq).trim();
    return [name, secretFromEnv('--balance-header-env', pair.slice(eq + 1).trim())];
  });
  return [...given, ...env];
}

export function addBalanceOptions(cmd: Command): Command {
  return cmd
    .option('--balance-url <url>', "the operator's balance endpoint for test users (GET; {userId} stands for the user); '' clears")
    .option('--balance-path <jsonpath>', "where the balance is in the probe's answer ($.data.balance; may hold {userId}); '' clears")
    .option(
      '--balance-units <units>',
      'how the probe and answers write balances: minor (1050) or major (10.50); default: as the profile writes amounts',
      balanceUnits,
    )
    .option('--balance-header <header>', "a header the probe sends, 'Name: value' (repeatable; replaces the stored ones; prefer --balance-header-env)", collect)
    .option('--balance-header-env <pair>', "a probe header whose value is in an environment variable, 'Name=VAR' (repeatable)", collect)
    .option('--no-balance-headers', "forget the probe's headers")
    .option(
      '--balance-hmac-key-env <var>',
      "environment variable holding the key of the headers' {hmac-sha256-hex:TEMPLATE} and {hmac-sha256-base64:TEMPLATE} (sealed, never shown)",
    )
    .option('--no-balance-hmac-key', "forget the probe's signing key")
    .option('--answer-balance-path <jsonpath>', "where an operator's answer to a callback carries the balance ($.balance); '' clears");
}

type BalanceFields = Pick<ProfileInput, 'balanceUrl' | 'balancePath' | 'balanceUnits' | 'balanceHeaders' | 'balanceHmacKey' | 'answerBalancePath'>;

/** The probe fields the flags give (only those given change); '' clears a URL or a path. */
export function balanceInput(opts: Record<string, unknown>, cmd: Command): BalanceFields {
  const headers = probeHeaders(opts.balanceHeader as string[] | undefined, opts.balanceHeaderEnv as string[] | undefined);
  const clearHeaders = cmd.getOptionValueSource('balanceHeaders') === 'cli' && opts.balanceHeaders === false;
  if (headers !== undefined && clearHeaders) throw new UsageError('--balance-header(-env) and --no-balance-headers contradict each other: give one');
  const clearKey = cmd.getOptionValueSource('balanceHmacKey') === 'cli' && opts.balanceHmacKey === false;
  if (opts.balanceHmacKeyEnv !== undefined && clearKey)
    throw new UsageError('--balance-hmac-key-env and --no-balance-hmac-key contradict each other: give one');
  const key = typeof opts.balanceHmacKeyEnv === 'string' ? secretFromEnv('--balance-hmac-key-env', opts.balanceHmacKeyEnv) : undefined;
  const text = (v: unknown): string | null | undefined => (typeof v !== 'string' ? undefined : v === '' ? null : v);
  const fields: { [K in keyof BalanceFields]-?: BalanceFields[K] | undefined } = {
    balanceUrl: text(opts.balanceUrl),
    balancePath: text(opts.balancePath),
    balanceUnits: opts.balanceUnits as BalanceUnits | undefined,
    balanceHeaders: clearHeaders ? null : headers,
    balanceHmacKey: clearKey ? null : key,
    answerBalancePath: text(opts.answerBalancePath),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as BalanceFields;
}
