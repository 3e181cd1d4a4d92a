// The profiles of a desk on a team's database. The team's rows are the truth, so every proxy routes,
// judges and signs with the same profiles and secrets; the desk works on an in-memory copy of them
// (store/sqlite/profile-copy.ts) so that its readers stay synchronous. The copy is read whole before a call
// when it is more than POLL_MS old, and every POLL_MS by a desk that lives on (a proxy, a UI). A change reads the
// team's rows first, runs on the copy, then what it touched is written to the team's database (refused
// if another desk changed those rows in between), and it is undone here if that write fails: the copy
// never keeps a change the team does not have. Which profile is active stays each desk's own.
//
// Read on a timer, not through LISTEN: up to PostgreSQL 18 every backend that listens on any channel is
// woken by every NOTIFY in its database, and the proxies send one with each group they commit. A profile
// listener per proxy would cost the database a wake-up on every commit, for a change made a few times a day.
import { performance } from 'node:perf_hooks';
import type { SecretsKeySource } from '../../shared/model';
import { DEFAULT_CALLBACK_PREFIX } from '../protocol/callback-path';
import { OneAtATime } from '../one-at-a-time';
import { DeskFailure } from '../result';
import { byName, prefixOf, type ProfileCopy, type ProfileStore } from '../store/sqlite';
import type { ProfileChange, TeamLog } from '../store/postgres';
import { sameRowOrNone } from '../store/copy/copy-side';

export interface TeamProfiles {
  /**
   * Settles once the copy is at most POLL_MS old: at once when it is, else after a read. A database away
   * leaves the copy as it was, and the call then meets the database itself; rejects only when the
   * database cannot be used as it is (no schema of this version, a URL that is not one): every call
   * would fail, and the profiles' own (which read only the copy) would answer as if there were none.
   */
  current(): Promise<void>;
  /**
   * Runs `fn` (a change of the profiles named) on the copy, then writes those rows to the team. With
   * `sealsSecrets`, refused while this desk's key does not open the team's secrets.
   */
  change<T>(names: readonly string[], fn: () => T, sealsSecrets?: boolean): Promise<T>;
  /** From now on reads the profiles every POLL_MS (a desk that lives on: a proxy, a UI), calls or not. */
  listen(): void;
  stop(): Promise<void>;
}

function foreignKeyRefusal(key: SecretsKeySource): DeskFailure {
  const mine = key.file ?? key.namedBy ?? 'the environment';
  return new DeskFailure(
    'bad-input',
    `This desk's key (${mine}) does not open the team's sealed secrets, so a secret saved here would be sealed with a key the team's other desks do not have. Give this desk the team's key (--key-file or WAGER_DESK_KEY_FILE, or WAGER_DESK_KEY), then save again; \`wager-desk status\` says what is wrong with this one.`,
  );
}

// The data directory's own key is one laptop's: a team's first secret sealed with it would make it the
// team's key without anyone having chosen or copied it, and every desk with the shared key locked out.
function ownKeyRefusal(key: SecretsKeySource): DeskFailure {
  return new DeskFailure(
    'bad-input',
    `On a team's database secrets are sealed with the team's key, and this desk reads only its data directory's own (${key.file}). Give it the team's key file (--key-file or WAGER_DESK_KEY_FILE) or WAGER_DESK_KEY, then save again.`,
  );
}

export interface TeamProfileHooks {
  /** The copy changed (read anew, or a change made or undone): cached secrets are stale. */
  changed(): void;
  /** The copy was read anew from the team's database: its profiles' names. */
  read(names: string[]): void;
}

/** How soon a desk that lives on sees another desk's change of the profiles. */
const POLL_MS = 1_000;

/** `key`: where this desk's key comes from (named in a refusal; never the key). */
export function teamProfiles(log: TeamLog, copy: ProfileCopy, profiles: ProfileStore, key: SecretsKeySource, hooks: TeamProfileHooks): TeamProfiles {
  // Reads and changes one at a time: a read landing between a change and its write would put back the
  // team's older row, and the write would then send that.
  const turns = new OneAtATime();
  let stopped = false;
  /** When the last read began (performance.now()): the copy is at least that current. */
  let readAt = -Infinity;
  /** Reads the team's rows into the copy; inside the queue. */
  const refresh = async (): Promise<void> => {
    const began = performance.now();
    const rows = await log.readProfiles();
    readAt = began;
    // Unchanged (the usual poll): nothing cached is dropped, nobody is told. By name: the database's
    // collation may order names otherwise than the copy's byte order.
    const now = byName(copy.rows());
    const theirs = byName(rows);
    if (theirs.size === now.size && [...theirs].every(([name, r]) => sameRowOrNone(now.get(name) ?? null, r))) return;
    copy.replace(rows);
    profiles.sealedChanged();
    hooks.changed();
    hooks.read(profiles.list().map((p) => p.name));
  };
  let pendingRead: Promise<void> | null = null;
  const read = (): Promise<void> =>
    (pendingRead ??= turns.run(async () => {
      pendingRead = null;
      if (!stopped) await refresh();
    }));

  // Nothing is read at open: a desk closed unused never waits for the database.
  let poll: NodeJS.Timeout | null = null;
  const changing = new Set<Promise<unknown>>();

  return {
    // A desk that calls often (`tail` follows the log ten times a second) reads the profiles once a POLL_MS.
    current: () =>
      performance.now() - readAt < POLL_MS
        ? Promise.resolve()
        : read().catch((err: unknown) => {
            if (err instanceof DeskFailure && err.code === 'bad-input') throw err;
          }),
    change: (names, fn, sealsSecrets = false) => {
      const run = turns.run(async () => {
        if (stopped) throw new DeskFailure('io-error', 'The desk is closing.');
        // A change is made on the team's rows as they are now, never on a copy a poll old: a field
        // saved here must not put back another desk's older secret. A database away refuses it here.
        await refresh();
        if (sealsSecrets && key.from === 'default-file') throw ownKeyRefusal(key);
        if (sealsSecrets && profiles.keyProblem() !== null) throw foreignKeyRefusal(key);
        const before = copy.rows();
        const active = profiles.activeSetting();
        const old = new Map(names.map((n) => [n, copy.row(n)]));
        const value = fn();
        const activeAfter = profiles.activeSetting();
        const changes: ProfileChange[] = names.map((name) => {
          const row = copy.row(name);
          const was = old.get(name) ?? null;
          const newPrefix = row !== null && (was === null || prefixOf(was) !== prefixOf(row));
          return { name, row, was, adoptPrefix: newPrefix ? (prefixOf(row) ?? DEFAULT_CALLBACK_PREFIX) : null };
        });
        try {
          await log.writeProfiles(changes);
        } catch (err) {
          // Undone whole: the rows, and the data directory's choice of the active one (unless someone
          // chose again meanwhile: `profile use` does not wait for a change).
          copy.replace(before);
          if (profiles.activeSetting() === activeAfter) profiles.setActiveSetting(active);
          profiles.sealedChanged();
          throw err;
        } finally {
          hooks.changed();
        }
        return value;
      });
      changing.add(run);
      void run.catch(() => undefined).finally(() => changing.delete(run));
      return run;
    },
    listen() {
      if (poll !== null || stopped) return;
      // A database away now is read again at the next poll.
      void read().catch(() => undefined);
      poll = setInterval(() => void read().catch(() => undefined), POLL_MS);
      poll.unref();
    },
    // Closing never waits for a read: one in flight fails with the log's connection, one asked for later
    // is not made. A change in flight is waited for: the copy and the active choice it may have to put
    // back live in databases the desk closes next.
    async stop() {
      stopped = true;
      if (poll !== null) clearInterval(poll);
      await Promise.allSettled([...changing]);
    },
  };
}
