// The two filter spellings people type for a redelivery: id lists ("12,15-20") and times that are
// either ISO 8601 or relative to now ("2h" ago). Pure, so the CLI, the desk and the UI read them alike.

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "12,15-20" as inclusive ranges; throws an Error saying what is wrong. */
export function parseIdRanges(text: string): Array<[number, number]> {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length === 0) throw new Error('expected ids such as 12,15-20');
  return parts.map((part) => {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) throw new Error(`"${part}" is not an id or a range (12 or 15-20)`);
    const from = Number(m[1]);
    const to = m[2] !== undefined ? Number(m[2]) : from;
    if (from < 1 || to < from) throw new Error(`"${part}": a range runs from a smaller id to a larger one, from 1`);
    return [from, to];
  });
}

/**
 * An ISO 8601 time, or a relative one ("2h", "30m", "45s", "1d": that long before `now`), as an ISO
 * string comparable with the stored times (UTC, milliseconds). Throws an Error saying what is wrong.
 */
export function resolveTime(text: string, now: Date = new Date()): string {
  const trimmed = text.trim();
  const relative = /^(\d+(?:\.\d+)?)\s*([smhd])$/i.exec(trimmed);
  if (relative) return new Date(now.getTime() - Number(relative[1]) * UNIT_MS[relative[2]!.toLowerCase()]!).toISOString();
  // A bare date or a time without an offset is read as UTC, like the stored times.
  const iso = /^\d{4}-\d{2}-\d{2}(T[\d:.]+)?$/.test(trimmed) ? `${trimmed}${trimmed.includes('T') ? 'Z' : 'T00:00:00Z'}` : trimmed;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(iso) ? Date.parse(iso) : NaN;
  if (Number.isNaN(ms)) throw new Error(`"${text}" is neither an ISO 8601 time (2026-11-24T01:00:00Z) nor a relative one (2h, 30m, 45s, 1d)`);
  return new Date(ms).toISOString();
}
