// One path per request. A request target is read once: its dot segments ("." and "..", also written
// percent-encoded, as many servers decode them) resolved and its empty segments dropped (RFC 3986
// section 5.2.4). That one path chooses the profile, decides the kind and is what goes upstream, so a
// target cannot be one profile's by its raw spelling and reach another's upstream by its resolved one.
// A ".." at the top stays at the top: no target reaches above the root (or an upstream's base path).
//
// Some spellings have no one reading: servers disagree on whether an encoded slash (%2F) or a backslash
// (raw or %5C) separates segments, and some (Tomcat, Jetty) read "..;x" as "..". A target holding one
// is refused rather than guessed at (see docs/LIMITS.md, "Request paths").

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

const ENCODED_SLASH = /%2f/i;
const BACKSLASH = /\\|%5c/i;
/** A dot segment with parameters ("..;x", ".;"), which servers that strip path parameters read as a dot segment. */
const DOT_WITH_PARAMETERS = /(?:^|\/)(?:\.|%2e){1,2};/i;

/** Why a target's path has no one reading (so it is refused), or null when it has one. */
export function ambiguousPath(path: string): string | null {
  if (ENCODED_SLASH.test(path)) return 'an encoded slash (%2F), which some servers decode into a segment boundary and others do not';
  if (BACKSLASH.test(path)) return 'a backslash (raw or %5C), which some servers read as a slash and others do not';
  if (DOT_WITH_PARAMETERS.test(path)) return 'a dot segment with parameters ("..;"), which servers that strip parameters read as ".."';
  return null;
}
