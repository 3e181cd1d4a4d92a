// A data directory holding `rows` synthetic captures (bench/lib/exchange-rows.ts through the real
// store), filled once per benchmark process and shared by the benchmarks that read a large log.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../src-main/core/store/sqlite';
import { fillExchanges } from '../store';

const filled = new Map<string, string>();

export function filledHome(scratch: string, rows: number, log: (line: string) => void): string {
  const key = `${scratch}:${rows}`;
  const known = filled.get(key);
  if (known) return known;
  const home = join(scratch, `filled-${rows}`);
  mkdirSync(home, { recursive: true });
  const store = openStore(home);
  try {
    log(`  filling ${rows.toLocaleString('en-US')} exchanges...`);
    const { ms } = fillExchanges(store, rows, log);
    log(`  filled in ${(ms / 1000).toFixed(1)} s`);
  } finally {
    store.close();
  }
  filled.set(key, home);
  return home;
}
