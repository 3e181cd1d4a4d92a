// One path per request. A request target is read once: its dot segments ("." and "..", also written
// percent-encoded, as many servers decode them) resolved and its empty segments dropped (RFC 3986
// section 5.2.4). That one path chooses the profile, decides the kind and is what goes upstream, so a
// target cannot be one profile's by its raw spelling and reach another's upstream by its resolved one.
// A ".." at the top stays at the top: no target reaches above the root (or an upstream's base path).
//
// Some spellings have no one reading: servers disagree on whether an encoded slash (%2F) or a backslash
// (raw or %5C) separates segments, and some (Tomcat, Jetty) read "..;x" as "..". A target whose meaning
// depends on that is refused rather than guessed at (docs/LIMITS.md, "Request path").

const DOT = /^(?:\.|%2e)$/i;
const DOT_DOT = /^(?:\.|%2e){2}$/i;

/** What a path needs for any segment to be empty or a dot segment (the path starting with "/"). */
const NEEDS_NORMALIZING = /\/\/|\/\.|\/%2e/i;

/** The target's path, normalized: always starts with "/", no ".", "..", or empty segments. */
export function normalizedPath(path: string): string {
  // Every request asks: a callback's path is nearly always normal already, and is kept as it is.
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

/** A slash some servers see where others see a character of a segment: %2F, a backslash, %5C. */
const SLASH_LIKE = /%2f|%5c|\\/gi;
/** A dot segment with parameters ("..;x", ".;"), which servers that strip path parameters read as a dot segment. */
const DOT_WITH_PARAMETERS = /(?:^|\/)(?:\.|%2e){1,2};/i;

/**
 * The path as a server that takes %2F, %5C and "\\" for slashes reads it, normalized; null when the path
 * holds none of them (then every server reads it the same).
 */
export function slashReading(path: string): string | null {
  SLASH_LIKE.lastIndex = 0;
  if (!SLASH_LIKE.test(path)) return null;
  return normalizedPath(path.replace(SLASH_LIKE, '/'));
}

const HAS_DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;
const lastSegment = (path: string): string => path.slice(path.lastIndexOf('/', path.length - 2) + 1).replace(/\/$/, '');

/**
 * Why a target's path has no one reading (so it is refused), or null when it has one. An encoded slash
 * or a backslash is a character of its segment (a value a client percent-encoded, say), unless reading
 * it as a slash would change what the path means: resolve a dot segment, or give it another last
 * segment (the one that makes a callback a pay or a results).
 */
export function ambiguousPath(path: string): string | null {
  if (DOT_WITH_PARAMETERS.test(path)) return 'a dot segment with parameters ("..;"), which servers that strip parameters read as ".."';
  const other = slashReading(path);
  if (other === null) return null;
  const ours = normalizedPath(path);
  if (HAS_DOT_SEGMENT.test(ours.replace(SLASH_LIKE, '/')) || lastSegment(other) !== lastSegment(ours)) {
    return `an encoded slash (%2F) or a backslash that servers reading it as a slash would take to ${JSON.stringify(other)}`;
  }
  return null;
}
