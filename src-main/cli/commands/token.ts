// `token --user-id U --display-name N [--base-url URL [--confirm-base-url] --operator-id ID --api-key-env V | --profile P]
// [--allow-self-signed] [--json]`
// (design/CLI.md). Exit 0 with a decoded token; 1 when no usable token came back; 2 for usage/config.
import type { Command } from 'commander';
import type { TokenResult } from '../../shared/model';
import { must, withDesk } from '../context';
import { NegativeAnswer } from '../errors';
import { printJson, secretFromEnv } from '../io';
import { httpUrl } from '../parse';

function timeLeft(seconds: number): string {
  if (seconds <= 0) return `expired ${Math.abs(seconds)} s ago`;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `expires in ${h > 0 ? `${h} h ` : ''}${m} min ${seconds % 60} s`;
}

function render(r: TokenResult): string {
  const out = [`status: ${r.status ?? 'no response'}`];
  if (r.token !== null) out.push(`token: ${r.token}`);
  if (r.decoded) {
    out.push(`header: ${JSON.stringify(r.decoded.header)}`, `payload: ${JSON.stringify(r.decoded.payload)}`);
    for (const [claim, date] of Object.entries(r.decoded.dates)) out.push(`${claim}: ${date}`);
    if (r.decoded.secondsLeft !== null) out.push(`time left: ${timeLeft(r.decoded.secondsLeft)}`);
    out.push(`note: ${r.decoded.note}`);
  } else if (r.body !== null) out.push(`body: ${r.body}`);
  out.push(`exchange: ${r.exchangeId}`);
  return `${out.join('\n')}\n`;
}

export function registerToken(program: Command): void {
  program
    .command('token')
    .description("request a test token from the service's create-token endpoint and decode it")
    .requiredOption('--user-id <id>', "the operator's user id")
    .requiredOption('--display-name <name>', "the user's display name")
    .option('--base-url <url>', "the service's base URL (default: the profile's)", httpUrl)
    .option('--operator-id <id>', "the x-operator-id value (default: the profile's)")
    .option('--api-key-env <var>', "environment variable that holds the API key (default: the profile's stored key)")
    .option('--profile <name>', 'use this profile (default: the active profile)')
    .option('--confirm-base-url', "confirm that --base-url, which is not the profile's base URL, may receive the profile's stored API key")
    .option('--allow-self-signed', 'accept a self-signed certificate from the token service for this call (the host name is still checked)')
    .option('--json', 'machine-readable output: {status, token, decoded: {header, payload}, body}')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      const apiKey = opts.apiKeyEnv !== undefined ? secretFromEnv('--api-key-env', opts.apiKeyEnv) : undefined;
      await withDesk(opts, async (desk) => {
        const result = must(
          await desk.requestToken({
            userId: opts.userId,
            displayName: opts.displayName,
            ...(opts.profile !== undefined ? { profile: opts.profile } : {}),
            ...(opts.baseUrl !== undefined ? { baseUrl: opts.baseUrl } : {}),
            ...(opts.operatorId !== undefined ? { operatorId: opts.operatorId } : {}),
            ...(apiKey !== undefined ? { apiKey } : {}),
            ...(opts.confirmBaseUrl && opts.baseUrl !== undefined ? { confirmedBaseUrl: opts.baseUrl } : {}),
            ...(opts.allowSelfSigned ? { allowSelfSigned: true } : {}),
          }),
        );
        if (opts.json) {
          const { decoded } = result;
          printJson({
            status: result.status,
            token: result.token,
            decoded: decoded
              ? { header: decoded.header, payload: decoded.payload, dates: decoded.dates, secondsLeft: decoded.secondsLeft, note: decoded.note }
              : null,
            body: result.body,
            error: result.error,
            exchangeId: result.exchangeId,
          });
        } else process.stdout.write(render(result));
        if (result.error !== null) throw new NegativeAnswer(`wager-desk: ${result.error}`);
      });
    });
}
