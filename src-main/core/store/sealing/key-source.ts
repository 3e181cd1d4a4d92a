import { join, resolve } from 'node:path';
import type { SecretsKeySource } from '../../../shared/model';
import { DeskFailure } from '../../result';

/** The key file's name in the data directory, where the key lives unless another source is given. */
export const KEY_FILE = 'secrets.key';

/** The environment variable that names a key file. */
export const KEY_FILE_VARIABLE = 'WAGER_DESK_KEY_FILE';
/** The environment variable that holds the key itself, in base64. */
export const KEY_VARIABLE = 'WAGER_DESK_KEY';

export const KEY_BYTES = 32;

/**
 * Where the SecretBox reads its key. Only the default file is ever made by the desk: a file or a key given
 * from outside is the team's, shared by several processes, and a fresh one made beside it would seal new
 * secrets that no other process can open. The environment's key is read through a function, so that this
 * object (kept by the box and its errors) never holds the key's text where a log or a JSON dump could show it.
 */
export type KeySource =
  | { from: 'default-file'; file: string }
  | { from: 'given-file'; file: string; namedBy: '--key-file' | typeof KEY_FILE_VARIABLE }
  | { from: 'environment'; read: () => string };

export interface KeySourceChoice {
  /** The data directory: the default file's place. */
  home: string;
  /** A key file given explicitly (the CLI's --key-file); it wins over the environment. */
  keyFile?: string | undefined;
  /** Where WAGER_DESK_KEY_FILE and WAGER_DESK_KEY are read. */
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * The key's source: an explicit key file, else WAGER_DESK_KEY_FILE, else WAGER_DESK_KEY, else the data
 * directory's secrets.key. Both variables at once are refused rather than one chosen: the two may name
 * different keys, and secrets sealed with the wrong one would be unreadable to the rest of the team.
 */
export function chooseKeySource(choice: KeySourceChoice): KeySource {
  if (choice.keyFile !== undefined) return givenFile(choice.keyFile, '--key-file');
  const fileVariable = choice.env[KEY_FILE_VARIABLE];
  const key = choice.env[KEY_VARIABLE];
  if (fileVariable !== undefined && key !== undefined) {
    throw new DeskFailure(
      'bad-input',
      `${KEY_FILE_VARIABLE} and ${KEY_VARIABLE} are both set: the desk will not guess which holds the key. Unset one of them (or give --key-file, which wins over both).`,
    );
  }
  if (fileVariable !== undefined) return givenFile(fileVariable, KEY_FILE_VARIABLE);
  // An empty WAGER_DESK_KEY is a source too (and refused as malformed when a secret is needed): falling
  // back to the default file would make a key of its own without a word.
  if (key !== undefined) return { from: 'environment', read: () => key };
  return { from: 'default-file', file: join(choice.home, KEY_FILE) };
}

function givenFile(path: string, namedBy: '--key-file' | typeof KEY_FILE_VARIABLE): KeySource {
  if (path.trim() === '')
    throw new DeskFailure('bad-input', `${namedBy} is empty: name the key file, or leave it out to use the data directory's ${KEY_FILE}.`);
  return { from: 'given-file', file: resolve(path), namedBy };
}

/** What the status shows of a source: where the key comes from, never the key. */
export function describeKeySource(source: KeySource): SecretsKeySource {
  switch (source.from) {
    case 'default-file':
      return { from: 'default-file', file: source.file, namedBy: null };
    case 'given-file':
      return { from: 'given-file', file: source.file, namedBy: source.namedBy };
    case 'environment':
      return { from: 'environment', file: null, namedBy: KEY_VARIABLE };
  }
}

/** The standard base64 of exactly 32 bytes: 43 characters and one `=`, as `base64 < secrets.key` prints it. */
const KEY_TEXT = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

/**
 * The key from WAGER_DESK_KEY's text (surrounding white space ignored: a trailing newline from a file or a
 * secret store is common), or null when it is not the base64 of 32 bytes.
 */
export function decodeKeyText(text: string): Buffer | null {
  const trimmed = text.trim();
  if (!KEY_TEXT.test(trimmed)) return null;
  const key = Buffer.from(trimmed, 'base64');
  return key.length === KEY_BYTES ? key : null;
}
