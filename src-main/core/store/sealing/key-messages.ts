import { KEY_FILE, KEY_FILE_VARIABLE, KEY_VARIABLE, type KeySource } from './key-source';

/** Why the key cannot be used. */
export type KeyProblem = 'missing' | 'wrong-key' | 'foreign-owner' | 'loose-mode' | 'damaged' | 'malformed';

/** A sealed value in the database, with the profile it belongs to (named in messages, never opened there). */
export interface SealedValue {
  profile: string;
  sealed: Uint8Array;
}

function profileList(values: readonly SealedValue[]): string {
  const names = [...new Set(values.map((v) => v.profile))];
  return names.length === 1 ? `profile "${names[0]}"` : `profiles ${names.map((n) => `"${n}"`).join(', ')}`;
}

const REENTER =
  're-enter them with `wager-desk profile set NAME --secret-env VAR` (and `--api-key-env VAR`), which clears every stored secret the key cannot open';

// What a desk without its key still does, said where the key comes from outside: a team member who
// starts a desk without the shared key should know that reading captures is fine and what is not.
const MEANWHILE = 'Until then captures can be listed and read, but nothing is verified, signed or sent with a stored secret.';

// On a team's database a secret sealed with any key but the team's opens on one desk alone, so a desk
// without the team's key is refused a new one (desk/team-profiles.ts): the way out is the team's key, or,
// if it is lost for good, the profiles set again from scratch.
const TEAM_LOST = 'if that key is lost for good, remove the profiles whose secrets it sealed (`wager-desk profile remove NAME`) and set them again';
const GIVE_TEAM_KEY = "Give this desk the team's key: --key-file or WAGER_DESK_KEY_FILE naming a copy of the team's key file, or WAGER_DESK_KEY.";

/**
 * The one-line refusal for a key problem. It names the key file, or the variable that holds the key, and
 * never the key: an environment's key is not quoted, not even in part. The default file's messages are
 * the ones a single laptop has always shown; a given file or variable gets ways out that leave the team's
 * key where it is (the desk never makes or replaces a key it is given).
 */
export function keyProblemMessage(source: KeySource, problem: KeyProblem, unreadable: readonly SealedValue[], detail: string, team = false): string {
  const whose = unreadable.length > 0 ? ` (the secrets of ${profileList(unreadable)})` : '';
  if (team && source.from === 'default-file' && (problem === 'missing' || problem === 'wrong-key')) {
    return `This desk reads the data directory's own key (${source.file}), and the team's database holds secrets sealed with the team's key${whose}. ${GIVE_TEAM_KEY} ${MEANWHILE}`;
  }
  const reenter = team ? TEAM_LOST : `if that key is lost for good, ${REENTER}`;
  if (source.from === 'default-file') return defaultFileMessage(source.file, problem, whose, detail);
  if (source.from === 'given-file') return givenFileMessage(source.file, source.namedBy, problem, whose, detail, reenter);
  return environmentMessage(problem, whose, reenter);
}

function defaultFileMessage(file: string, problem: KeyProblem, whose: string, detail: string): string {
  switch (problem) {
    case 'missing':
      return `The key file ${file} is missing, and the database holds secrets sealed with it${whose}. Restore it from the data directory the database came from, or ${REENTER}.`;
    case 'wrong-key':
      return `The key file ${file} does not open the secrets stored in the database${whose}: it is not the key they were sealed with. Restore the right key file, or ${REENTER}.`;
    case 'foreign-owner':
      return `The key file ${file} belongs to another user (${detail}): Wager Desk does not use a key that someone else made or can replace. Remove it if it is not yours, or restore your own key file; then restart.`;
    case 'loose-mode':
      return `The key file ${file} can be read by group or others (mode ${detail}): whoever read it can open the stored secrets. Make it private (chmod 600 ${file}) and consider changing the secrets, or remove it and ${REENTER}.`;
    case 'damaged':
    case 'malformed':
      return `The key file ${file} is damaged (${detail}). Restore it from a backup, or remove it and ${REENTER}.`;
  }
}

function givenFileMessage(file: string, namedBy: string, problem: KeyProblem, whose: string, detail: string, reenter: string): string {
  const subject = `The key file ${file} (given by ${namedBy})`;
  const rename = `or name the right one with --key-file or ${KEY_FILE_VARIABLE}`;
  switch (problem) {
    case 'missing': {
      const sealed = whose === '' ? '' : `, and the database holds secrets sealed with a key${whose}`;
      return `${subject} does not exist${sealed}: Wager Desk never makes a key file it is given. Copy the key file the team's desks share to that place, ${rename}. ${MEANWHILE}`;
    }
    case 'wrong-key':
      return `${subject} does not open the secrets stored in the database${whose}: it is not the key they were sealed with. Give the key file they were sealed with (the team's), or, ${reenter}.`;
    case 'foreign-owner':
      return `${subject} belongs to another user (${detail}): Wager Desk does not use a key that someone else can replace. Keep a copy of the key that you own (mode 600), ${rename}. ${MEANWHILE}`;
    case 'loose-mode':
      return `${subject} can be read by group or others (mode ${detail}): whoever read it can open the stored secrets. Make it private (chmod 600 ${file}) and consider changing the secrets. ${MEANWHILE}`;
    case 'damaged':
    case 'malformed':
      return `${subject} is damaged (${detail}). Replace it with the key file the team's desks share, ${rename}. ${MEANWHILE}`;
  }
}

function environmentMessage(problem: KeyProblem, whose: string, reenter: string): string {
  switch (problem) {
    case 'wrong-key':
      return `The key in ${KEY_VARIABLE} does not open the secrets stored in the database${whose}: it is not the key they were sealed with. Set ${KEY_VARIABLE} to the key they were sealed with (the team's), or, ${reenter}.`;
    default:
      // The value is not described at all (not its length, not a character): it may be a key with a typo.
      return `${KEY_VARIABLE} does not hold a key: it must be the 32 bytes of a key file in base64 (44 characters, as \`base64 < ${KEY_FILE}\` prints them). Set it again, or unset it to use a key file. ${MEANWHILE}`;
  }
}
