import type { Command } from 'commander';
import type { ProfileInput, ProfileView, SecretState } from '../../shared/model';
import { must, withDesk } from '../context';
import { UsageError } from '../errors';
import { printJson, secretFromEnv } from '../io';
import { currencyCode, httpUrl } from '../parse';
import { addBalanceOptions, balanceInput, balanceLines, printableProfile } from './profile-balance';
import { amountsMode, callbackPrefix } from '../callback-options';

function secretText(s: SecretState): string {
  return s.set ? `set (${s.fingerprint})` : 'unset';
}

function describe(p: ProfileView): string {
  return [
    `${p.active ? '*' : ' '} ${p.name}${p.production ? '  [production]' : ''}`,
    `    secret: ${secretText(p.secret)}   api key: ${secretText(p.apiKey)}${p.previousSecret.set ? `   previous secret: ${secretText(p.previousSecret)}` : ''}`,
    `    operator url: ${p.operatorUrl ?? '-'}   upstream: ${p.upstream ?? '-'}`,
    `    service base url: ${p.baseUrl ?? '-'}   operator id: ${p.operatorId ?? '-'}${p.allowSelfSigned ? '   accepts self-signed TLS' : ''}`,
    `    callbacks: ${p.callbackPrefix}/pay, ${p.callbackPrefix}/results   amounts: ${p.amounts === 'integer' ? 'integer (minor units)' : 'decimal'}   currency: ${p.currency}`,
    ...(p.publicUrl ? [`    public url: ${p.publicUrl}`] : []),
    ...balanceLines(p),
  ].join('\n');
}

/** A running proxy keeps the upstream it was started with: how to make it take this profile's. */
function applyHint(p: ProfileView): string[] {
  if (!p.upstream) return [];
  return [
    `upstream ${p.upstream}: a running proxy keeps its upstream until it is changed;`,
    `  restart \`wager-desk serve\` (without --upstream) or choose "Apply to the running proxy" in the app to forward there`,
  ];
}

/** A public URL, or '' to clear the stored one. */
function publicUrlOption(value: string): string {
  return value === '' ? '' : httpUrl(value);
}

export function registerProfile(program: Command): void {
  const profile = program.command('profile').description('named environments: secrets, URLs, operator id');

  const set = profile
    .command('set')
    .description('create or update a profile (only the given fields change)')
    .argument('<name>')
    .option('--secret-env <var>', 'environment variable holding the signing secret')
    .option('--previous-secret-env <var>', 'environment variable holding the signing secret being rotated out (still accepted when verifying)')
    .option('--no-previous-secret', 'forget the previous signing secret (the rotation is over)')
    .option('--api-key-env <var>', 'environment variable holding the API key')
    .option('--operator-url <url>', "operator's callback base URL", httpUrl)
    .option('--base-url <url>', "service's base URL (token endpoint)", httpUrl)
    .option('--operator-id <id>', 'operator identifier (x-operator-id)')
    .option('--upstream <url>', 'proxy upstream (forward mode)', httpUrl)
    .option('--callback-prefix <path>', 'where the operator mounts its callbacks: <path>/pay and <path>/results (default /platform)', callbackPrefix)
    .option('--amounts <mode>', 'how the operator writes amounts: integer (minor units, the default) or decimal', amountsMode)
    .option('--currency <code>', 'the ISO 4217 currency its messages carry (EUR, JPY; default USD)', currencyCode)
    .option('--public-url <url>', "the address the platform calls for this profile (a tunnel's, a host's); '' clears", publicUrlOption)
    .option('--production', 'mark as production: sends ask for confirmation')
    .option('--no-production', 'clear the production mark')
    .option('--allow-self-signed', 'accept a self-signed TLS certificate from its targets')
    .option('--no-allow-self-signed', 'require a trusted certificate (default)')
    .option('--json', 'machine-readable output');
  addBalanceOptions(set).action(async (name: string, _opts, cmd: Command) => {
    const opts = cmd.optsWithGlobals();
    // Commander sets a negatable flag's default to true; only a flag actually given may change the profile.
    const given = (flag: string) => cmd.getOptionValueSource(flag) === 'cli';
    if (opts.previousSecretEnv !== undefined && given('previousSecret') && opts.previousSecret === false) {
      throw new UsageError('--previous-secret-env and --no-previous-secret contradict each other: give one');
    }
    const input: ProfileInput = {
      name,
      ...(opts.secretEnv !== undefined ? { secret: secretFromEnv('--secret-env', opts.secretEnv) } : {}),
      ...(opts.previousSecretEnv !== undefined ? { previousSecret: secretFromEnv('--previous-secret-env', opts.previousSecretEnv) } : {}),
      ...(given('previousSecret') && opts.previousSecret === false ? { previousSecret: null } : {}),
      ...(opts.apiKeyEnv !== undefined ? { apiKey: secretFromEnv('--api-key-env', opts.apiKeyEnv) } : {}),
      ...(opts.operatorUrl !== undefined ? { operatorUrl: opts.operatorUrl } : {}),
      ...(opts.baseUrl !== undefined ? { baseUrl: opts.baseUrl } : {}),
      ...(opts.operatorId !== undefined ? { operatorId: opts.operatorId } : {}),
      ...(opts.upstream !== undefined ? { upstream: opts.upstream } : {}),
      ...(opts.callbackPrefix !== undefined ? { callbackPrefix: opts.callbackPrefix } : {}),
      ...(opts.amounts !== undefined ? { amounts: opts.amounts } : {}),
      ...(opts.currency !== undefined ? { currency: opts.currency } : {}),
      ...(opts.publicUrl !== undefined ? { publicUrl: opts.publicUrl === '' ? null : opts.publicUrl } : {}),
      ...(given('production') ? { production: Boolean(opts.production) } : {}),
      ...(given('allowSelfSigned') ? { allowSelfSigned: Boolean(opts.allowSelfSigned) } : {}),
      ...balanceInput(opts, cmd),
    };
    await withDesk(opts, async (desk) => {
      const view = printableProfile(must(await desk.saveProfile(input)));
      if (opts.json) printJson(view);
      else process.stdout.write(`${describe(view)}\n`);
    });
  });

  profile
    .command('list')
    .description('list profiles (secrets shown only as set/unset and a fingerprint)')
    .option('--json', 'machine-readable output')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      await withDesk(opts, async (desk) => {
        const list = must(await desk.listProfiles()).map(printableProfile);
        // "set" means sealed in the database; a lost or foreign key file means none of them opens now.
        const keyProblem = must(await desk.getStatus()).secretsKeyProblem;
        if (keyProblem !== null) process.stderr.write(`warning: ${keyProblem}\n`);
        if (opts.json) printJson(list);
        else if (list.length === 0) process.stdout.write('no profiles: create one with `wager-desk profile set NAME --secret-env VAR`\n');
        else process.stdout.write(`${list.map(describe).join('\n')}\n`);
      });
    });

  profile
    .command('use')
    .description('make a profile the active one')
    .argument('<name>')
    .action(async (name: string, _opts, cmd: Command) => {
      await withDesk(cmd.optsWithGlobals(), async (desk) => {
        const view = must(await desk.useProfile(name));
        process.stdout.write(`active profile: ${name}\n`);
        for (const line of applyHint(view)) process.stdout.write(`${line}\n`);
      });
    });

  profile
    .command('remove')
    .description('remove a profile and its secrets')
    .argument('<name>')
    .action(async (name: string, _opts, cmd: Command) => {
      await withDesk(cmd.optsWithGlobals(), async (desk) => {
        must(await desk.removeProfile(name));
        process.stdout.write(`removed profile: ${name}\n`);
      });
    });
}
