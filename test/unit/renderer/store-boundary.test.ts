// The store's slices hold state and talk to the desk; screens live in features/. A slice that imports
// a feature folder would make the bottom floor depend on the top one.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const storeDir = fileURLToPath(new URL('../../../src-renderer/store', import.meta.url));

describe('the renderer store', () => {
  it('imports no feature folder', () => {
    const offenders = readdirSync(storeDir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => [...readFileSync(join(storeDir, f), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => `${f}: ${m[1]}`))
      .filter((line) => line.includes('/features/'));
    expect(offenders).toEqual([]);
  });

  it('subscribes to desk events in one place only', () => {
    const root = fileURLToPath(new URL('../../../src-renderer', import.meta.url));
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(ts|tsx)$/.test(f) && !f.startsWith('api'));
    const subscribers = files.filter((f) => /desk\.onEvent\(/.test(readFileSync(join(root, f), 'utf8')));
    expect(subscribers).toEqual([join('store', 'events.ts')]);
  });
});
