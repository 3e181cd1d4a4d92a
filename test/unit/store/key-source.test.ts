// Where the secrets' key comes from: an explicit key file, the environment's file or key, or the data
// directory's own file; and what WAGER_DESK_KEY must hold (a key file's 32 bytes in base64).
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseKeySource, decodeKeyText, describeKeySource, KEY_FILE } from '../../../src-main/core/store/sealing/key-source';

const home = '/data/desk';

describe('chooseKeySource', () => {
  it('is the data directory’s secrets.key when nothing is given', () => {
    expect(describeKeySource(chooseKeySource({ home, env: {} }))).toEqual({ from: 'default-file', file: join(home, KEY_FILE), namedBy: null });
  });

  it('takes WAGER_DESK_KEY_FILE, made absolute', () => {
    const source = chooseKeySource({ home, env: { WAGER_DESK_KEY_FILE: 'team/secrets.key' } });
    expect(describeKeySource(source)).toEqual({ from: 'given-file', file: resolve('team/secrets.key'), namedBy: 'WAGER_DESK_KEY_FILE' });
  });

  it('takes WAGER_DESK_KEY, and describes it without its value', () => {
    const value = randomBytes(32).toString('base64');
    const source = chooseKeySource({ home, env: { WAGER_DESK_KEY: value } });
    const described = describeKeySource(source);
    expect(described).toEqual({ from: 'environment', file: null, namedBy: 'WAGER_DESK_KEY' });
    expect(JSON.stringify(source)).not.toContain(value);
    expect(JSON.stringify(described)).not.toContain(value);
  });

  it('lets an explicit key file win over both variables', () => {
    const source = chooseKeySource({ home, keyFile: '/keys/team.key', env: { WAGER_DESK_KEY_FILE: '/other.key', WAGER_DESK_KEY: 'x' } });
    expect(describeKeySource(source)).toEqual({ from: 'given-file', file: '/keys/team.key', namedBy: '--key-file' });
  });

  it('refuses both variables at once, quoting neither', () => {
    const value = randomBytes(32).toString('base64');
    let message = '';
    try {
      chooseKeySource({ home, env: { WAGER_DESK_KEY_FILE: '/keys/team.key', WAGER_DESK_KEY: value } });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/WAGER_DESK_KEY_FILE and WAGER_DESK_KEY are both set/);
    expect(message).not.toContain(value);
  });

  it('refuses an empty key file name', () => {
    expect(() => chooseKeySource({ home, keyFile: ' ', env: {} })).toThrow(/--key-file is empty/);
    expect(() => chooseKeySource({ home, env: { WAGER_DESK_KEY_FILE: '' } })).toThrow(/WAGER_DESK_KEY_FILE is empty/);
  });

  it('keeps an empty WAGER_DESK_KEY as the source (refused when read), never falling back to a key of its own', () => {
    expect(chooseKeySource({ home, env: { WAGER_DESK_KEY: '' } }).from).toBe('environment');
  });
});

describe('decodeKeyText', () => {
  it('reads the base64 of 32 bytes, with surrounding white space', () => {
    const key = randomBytes(32);
    expect(decodeKeyText(key.toString('base64'))).toEqual(key);
    expect(decodeKeyText(`  ${key.toString('base64')}\n`)).toEqual(key);
  });

  it('refuses anything else', () => {
    const key = randomBytes(32);
    for (const text of [
      '',
      key.toString('hex'),
      key.toString('base64url'),
      key.toString('base64').slice(0, -1),
      randomBytes(31).toString('base64'),
      randomBytes(33).toString('base64'),
      `${key.toString('base64')}${key.toString('base64')}`,
      'not a key at all',
    ]) {
      expect(decodeKeyText(text), text).toBeNull();
    }
  });

  it('refuses a non-canonical last character (bits beyond the 32 bytes)', () => {
    const text = Buffer.alloc(32).toString('base64');
    expect(text.endsWith('A=')).toBe(true);
    expect(decodeKeyText(`${text.slice(0, -2)}B=`)).toBeNull();
  });
});
