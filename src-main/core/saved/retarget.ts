// A saved request's path, moved under the callback prefix of the profile it is imported into. A path is
// written under the prefix of the profile it was saved in (/acme/results); sent from a profile whose
// operator mounts its callbacks elsewhere (/lose), it would only ever be answered 404. The prefix to
// replace is the one the file names (the profile it was exported from), else the longest known prefix
// the path starts with; a path under neither is kept as written, and the import says so.
import type { SavedPathChange } from '../../shared/model';

/** Whether the path lies under the prefix: the prefix itself, or followed by a segment, a query or a fragment. */
export function isUnderPrefix(path: string, prefix: string): boolean {
  if (!path.startsWith(prefix)) return false;
  const next = path.charAt(prefix.length);
  return next === '' || next === '/' || next === '?' || next === '#';
}

/**
 * The path under `target`. `named`: the prefix the file says its requests were saved under (null: an
 * older file, which does not say); `known`: every prefix a profile here has, and the spec's own.
 */
export function retargetPath(path: string, named: string | null, known: readonly string[], target: string): Omit<SavedPathChange, 'name'> {
  const longestFirst = [...known].sort((a, b) => b.length - a.length);
  // A prefix nested in another (/api under /api/v2) could match first: the file's own word wins, then the longest.
  const source = named !== null && isUnderPrefix(path, named) ? named : (longestFirst.find((p) => isUnderPrefix(path, p)) ?? null);
  if (source === null) return { from: path, to: path, outcome: 'kept', prefix: null };
  if (source === target || isUnderPrefix(path, target)) return { from: path, to: path, outcome: 'unchanged', prefix: source };
  return { from: path, to: `${target}${path.slice(source.length)}`, outcome: 'retargeted', prefix: source };
}
