// The README's install lines name every package whose declared Node is newer than the oldest Node the
// project supports: `npm install` warns EBADENGINE for each of them there, and a new user reads why
// before the warnings surprise them. The list comes from the lock file, so a new such dependency fails
// here until the README says so.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const OLDEST = [20, 19, 0];
const COUNT_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** The lowest version a plain ">= X.Y.Z" range allows; null for any other form (a list of ranges, a caret). */
function floor(range: string): number[] | null {
  const m = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : null;
}

const newer = (a: number[], b: number[]): boolean => {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
};

describe('EBADENGINE warnings', () => {
  it('are explained in the README, by name, for every installed package that needs a newer Node than 20.19', () => {
    const lock = JSON.parse(readFileSync(`${root}package-lock.json`, 'utf8')) as {
      packages: Record<string, { engines?: { node?: string }; optional?: boolean }>;
    };
    const warned = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && !p.optional && typeof p.engines?.node === 'string')
      .filter(([, p]) => {
        const min = floor(p.engines!.node!);
        return min !== null && newer(min, OLDEST);
      })
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(warned.length).toBeGreaterThan(0);
    const readme = readFileSync(`${root}README.md`, 'utf8').replace(/\s+/g, ' ');
    const sentence = /[^.]*EBADENGINE[^.]*\./.exec(readme)?.[0] ?? '';
    expect(sentence).toContain(`prints ${COUNT_WORDS[warned.length]} \`npm warn EBADENGINE\` lines`);
    for (const name of warned) expect(sentence).toContain(name);
    // In the README's opening, right under its two commands: read before anything else the README says.
    expect(readme.indexOf(sentence)).toBeGreaterThan(readme.indexOf('npm test'));
    expect(readme.indexOf(sentence)).toBeLessThan(readme.indexOf('## A first session'));
  });
});
