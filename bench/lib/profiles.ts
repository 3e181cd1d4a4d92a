// Profiles seeded into a bench's data directory before `serve` starts: n operators on one proxy, each
// with a callback prefix of its own and the same upstream. The first keeps the spec's /platform (the
// load's path), so the load goes to one operator among n and the routing table is what differs.
import { openStore } from '../../src-main/core/store/sqlite';

export function seedProfiles(home: string, upstream: string, secret: string, n: number): void {
  const store = openStore(home);
  try {
    for (let i = 0; i < n; i++) {
      store.profiles.save({ name: `op${i}`, upstream, secret, ...(i === 0 ? {} : { callbackPrefix: `/op${i}` }) });
    }
  } finally {
    store.close();
  }
}
