// A PostgreSQL URL as the desk takes it (postgres://user:password@host:port/database?sslmode=...), and
// the same URL fit to print: its password never reaches a message, a log or a progress line. Text only,
// no driver: it sits beside the engines so that what names a team database (the saved choice, the shells)
// needs no engine.
const SCHEMES = new Set(['postgres:', 'postgresql:']);
const SECRET_PARAMS = ['password', 'sslpassword', 'sslkey'];

/** Why `url` is not a PostgreSQL URL the desk can use, or null when it is. */
export function databaseUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'expected a URL of the form postgres://user:password@host:5432/database';
  }
  if (!SCHEMES.has(parsed.protocol)) return `expected a postgres:// or postgresql:// URL, got ${parsed.protocol}//...`;
  return null;
}

/** The URL with its password (and any password-like parameter) replaced by ***; unparseable: a placeholder. */
export function redactDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(an unreadable database URL)';
  }
  if (parsed.password !== '') parsed.password = '***';
  for (const name of SECRET_PARAMS) if (parsed.searchParams.has(name)) parsed.searchParams.set(name, '***');
  return parsed.toString().replaceAll('%2A%2A%2A', '***');
}

/** The URL's password and password-like parameters, raw and percent-decoded: secrets the desk redacts like its own. */
export function databaseSecrets(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const raw = [parsed.password, ...SECRET_PARAMS.map((p) => parsed.searchParams.get(p) ?? '')].filter((s) => s.length > 0);
  return raw.flatMap((s) => {
    try {
      return [s, decodeURIComponent(s)];
    } catch {
      // A password that is not valid percent-encoding appears only in its raw form.
      return [s];
    }
  });
}

/** `text` with every form of the URL's password (raw and percent-encoded) replaced by ***, and the URL itself redacted. */
export function withoutPassword(text: string, url: string): string {
  if (!URL.canParse(url)) return text;
  const secrets = databaseSecrets(url);
  const scrub = (part: string): string => secrets.reduce((out, s) => out.replaceAll(s, '***'), part);
  // The URL's own occurrences become its redacted form whole, so a password that is also a word of the URL
  // (a user named like it, the scheme) does not blot out the rest of it.
  return text.split(url).map(scrub).join(redactDatabaseUrl(url));
}
