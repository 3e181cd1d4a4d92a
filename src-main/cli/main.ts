// The wager-desk command line: a shell over the same desk as the desktop app. Names, flags, output
// lines and exit codes follow design/CLI.md; docs/CLI.md lists every command, flag and exit code.
import { Command, CommanderError } from 'commander';
import { EXIT_NEGATIVE, EXIT_NOT_OBSERVED, EXIT_USAGE, NegativeAnswer, NotObservedAnswer, UsageError } from './errors';
import { endQuietlyWhenTheReaderLeaves } from './io';
import { registerCommands } from './commands';
import { toDeskError } from '../core/desk/shell-kit';
import { refusePasswordInArgument } from './database-argument';
import { packageInfo } from './package-info';

export function buildProgram(): Command {
  const program = new Command('wager-desk')
    .description('Capture, verify, replay and check the signed callbacks of the operator interface.')
    .version(packageInfo()?.version ?? 'unknown', '-V, --version', 'print the version and exit')
    .option('--home <dir>', 'data directory (default: $WAGER_DESK_HOME, else the per-user app-data directory)')
    .option(
      '--key-file <file>',
      "the key file that seals stored secrets, shared by a team's desks; never created (default: $WAGER_DESK_KEY_FILE, else $WAGER_DESK_KEY, else <data dir>/secrets.key)",
    )
    .option(
      '--database <url>',
      "a team's PostgreSQL that holds the exchange log: serve captures into it, the other commands read and write it (default: $WAGER_DESK_DATABASE_URL, else the data directory's SQLite)",
    )
    .exitOverride()
    .showHelpAfterError(false)
    .configureOutput({ writeErr: (s) => process.stderr.write(s) })
    // Before any command runs: a password in --database (global, or a db command's own) is in `ps`.
    .hook('preAction', (_program, command) => refusePasswordInArgument('--database', command.optsWithGlobals<{ database?: string }>().database));
  // exitOverride() above is inherited by every command and subcommand made after it.
  registerCommands(program);
  return program;
}

export async function run(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof NegativeAnswer) {
      if (err.message) process.stderr.write(`${err.message}\n`);
      return EXIT_NEGATIVE;
    }
    if (err instanceof NotObservedAnswer) {
      if (err.message) process.stderr.write(`${err.message}\n`);
      return EXIT_NOT_OBSERVED;
    }
    if (err instanceof CommanderError) {
      // --help and --version exit through here with code 0; commander has already printed its reason.
      return err.exitCode === 0 ? 0 : EXIT_USAGE;
    }
    if (err instanceof UsageError) {
      process.stderr.write(`wager-desk: ${err.message}\n`);
      return EXIT_USAGE;
    }
    // A desk failure (not-found, bad-input, a port in use, ...) is the user's to fix: its message alone.
    const failure = toDeskError(err);
    if (failure.code !== 'internal') {
      process.stderr.write(`wager-desk: ${failure.message}\n`);
      return EXIT_USAGE;
    }
    // One line, as the contract asks; WAGER_DESK_DEBUG=1 adds the stack for a bug report.
    const detail = err instanceof Error ? (process.env.WAGER_DESK_DEBUG === '1' ? (err.stack ?? err.message) : err.message) : String(err);
    process.stderr.write(`wager-desk: internal error: ${detail.replace(/\n(?!\s+at )/g, ' ')}\n`);
    return EXIT_USAGE;
  }
}

endQuietlyWhenTheReaderLeaves();
// Long-running commands (serve) keep the process alive themselves; the others end when run() resolves.
void run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
