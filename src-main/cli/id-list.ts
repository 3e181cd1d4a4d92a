import { InvalidArgumentError } from 'commander';

/** Ids one --ids list may name: a range is expanded, so a typo like 1-99999999 is refused, not allocated. */
const MAX_IDS = 100_000;

/** --ids 12,15-20: the ids in the order given, each once. */
export function idList(value: string): number[] {
  const ids = new Set<number>();
  for (const part of value.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) throw new InvalidArgumentError(`expected ids and ranges such as 12,15-20; "${part}" is neither`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (from < 1 || to < from) throw new InvalidArgumentError(`"${part}" is not a range of ids (1 or more, low to high)`);
    if (ids.size + (to - from + 1) > MAX_IDS) throw new InvalidArgumentError(`at most ${MAX_IDS} ids`);
    for (let id = from; id <= to; id++) ids.add(id);
  }
  return [...ids];
}
