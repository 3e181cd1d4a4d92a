// The path a request is forwarded to: the upstream's base path, then the request's target with its dot
// segments resolved and its empty segments dropped (../protocol/target-path.ts, the same reading that
// chose the request's profile). A ".." at the top stays at the top, so no target can reach above the
// base path ("/../../admin//x" under "/op" goes to "/op/admin/x"). The query is kept as it came.
import { normalizedPath } from '../protocol/target-path';

export { normalizedPath };

/** The path and query to request from the upstream, and whether the target's path had to be normalized. */
export function upstreamPath(basePath: string, target: string): { path: string; normalized: boolean } {
  const q = target.indexOf('?');
  const rawPath = q < 0 ? target : target.slice(0, q);
  const query = q < 0 ? '' : target.slice(q);
  const path = normalizedPath(rawPath);
  const given = rawPath.startsWith('/') ? rawPath : `/${rawPath}`;
  return { path: basePath + path + query, normalized: path !== given };
}
