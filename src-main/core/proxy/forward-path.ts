// The path a request is forwarded to: the upstream's base path, then the request's target with its dot
// segments resolved and its empty segments dropped (RFC 3986 section 5.2.4, with "." and ".." also
// recognised percent-encoded, as many servers decode them). A ".." at the top stays at the top, so no
// target can reach above the base path ("/../../admin//x" under "/op" goes to "/op/admin/x"). The query
// is kept as it came.

const DOT = /^(?:\.|%2e)$/i;
const DOT_DOT = /^(?:\.|%2e){2}$/i;

/** What a path needs for any segment to be empty or a dot segment (the path starting with "/"). */
const NEEDS_NORMALIZING = /\/\/|\/\.|\/%2e/i;

/** The target's path, normalized: always starts with "/", no ".", "..", or empty segments. */
export function normalizedPath(path: string): string {
  // Every forwarded request asks: a callback's path is nearly always normal already, and is kept as it is.
  if (path.startsWith('/') && !NEEDS_NORMALIZING.test(path)) return path;
  const out: string[] = [];
  const segments = path.split('/');
  for (const segment of segments) {
    if (segment === '' || DOT.test(segment)) continue;
    if (DOT_DOT.test(segment)) out.pop();
    else out.push(segment);
  }
  // A trailing slash (or a final dot segment) names a directory: kept as such.
  const last = segments[segments.length - 1] ?? '';
  const trailing = out.length > 0 && (last === '' || DOT.test(last) || DOT_DOT.test(last));
  return `/${out.join('/')}${trailing ? '/' : ''}`;
}

/** The path and query to request from the upstream, and whether the target's path had to be normalized. */
export function upstreamPath(basePath: string, target: string): { path: string; normalized: boolean } {
  const q = target.indexOf('?');
  const rawPath = q < 0 ? target : target.slice(0, q);
  const query = q < 0 ? '' : target.slice(q);
  const path = normalizedPath(rawPath);
  const given = rawPath.startsWith('/') ? rawPath : `/${rawPath}`;
  return { path: basePath + path + query, normalized: path !== given };
}
