// A database URL given as a command-line argument is in the process's arguments, which every user of the
// machine can read (ps, /proc/PID/cmdline) for as long as the command runs: `serve` runs for days.
// Node cannot take it back out (assigning process.argv leaves /proc/PID/cmdline as it was), so a
// password there is refused before anything runs, with the ways that keep it out of sight.
import { databaseSecrets } from '../core/desk/shell-kit';
import { UsageError } from './errors';

/** The environment variable that names the team database: the way a URL with a password stays out of `ps`. */
export const DATABASE_ENV = 'WAGER_DESK_DATABASE_URL';

/** Refuses `url` when it carries a password; `flag` names where it was given (--database, --to, db use). */
export function refusePasswordInArgument(flag: string, url: string | undefined): void {
  if (url === undefined || databaseSecrets(url).length === 0) return;
  throw new UsageError(
    `${flag}: a password in a command-line URL is visible to every user of this machine (ps); give the URL in $${DATABASE_ENV}, save it once with \`wager-desk db use --from-env\`, or leave the password out of the URL and keep it in ~/.pgpass (or $PGPASSWORD)`,
  );
}
