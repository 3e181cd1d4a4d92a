// Where a balance is in a JSON answer. A plain path ($.data.balance, $.balances["{userId}"]) is read by
// the desk's own path reader, exactly as before; a path it cannot read (a filter such as
// $.account.balances[?(@.currency=="USD")].available) by jsonpath-plus with its safe evaluator, never
// native eval. {userId} never becomes path text another user id could rewrite: in a plain path it is
// put into the keys after the path is parsed; in a filter it is a variable bound to the user's id, so a
// quote, bracket or `*` in an id is only ever compared, never parsed.
import { JSONPath } from 'jsonpath-plus';
import { JsonPathError, parsePath, readPath, type PathReading } from '../protocol/json-path';

export const USER_PLACEHOLDER = '{userId}';

/** The filter variable {userId} becomes: a name no JSON member reaches (filters read members through @). */
const USER_VARIABLE = 'wdUserId';

type CompiledPath = { kind: 'plain' } | { kind: 'filter'; path: string };

/** A bracketed key that always parses back to exactly `key` in the desk's path syntax. */
const quotedKey = (key: string): string => `[${JSON.stringify(key)}]`;

/** A plain path with the user in its keys: each step rewritten whole, so no id adds or changes a step. */
function plainPathFor(template: string, userId: string): string {
  let out = '$';
  for (const step of parsePath(template)) {
    const key = step.key.split(USER_PLACEHOLDER).join(userId);
    if (step.bracket && step.index !== null) out += `[${step.index}]`;
    // A dot step that names an index stays a dot step: it reads an array's item as it always did.
    else if (!step.bracket && /^(0|[1-9]\d*)$/.test(key)) out += `.${key}`;
    else out += quotedKey(key);
  }
  return out;
}

/** A filter expression with every {userId} as the variable: inside a quoted literal, the literal is split around it. */
function bindUser(filter: string): string {
  const literals = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g;
  let out = '';
  let last = 0;
  for (const m of filter.matchAll(literals)) {
    out += filter.slice(last, m.index).split(USER_PLACEHOLDER).join(USER_VARIABLE);
    const q = m[0][0]!;
    const parts = m[0].slice(1, -1).split(USER_PLACEHOLDER);
    out += parts.length === 1 ? m[0] : `(${parts.map((p) => `${q}${p}${q}`).join(` + ${USER_VARIABLE} + `)})`;
    last = m.index + m[0].length;
  }
  return out + filter.slice(last).split(USER_PLACEHOLDER).join(USER_VARIABLE);
}

/** The filter expressions of a JSONPath ([?(...)]), with where each is. */
function filtersOf(path: string): Array<{ start: number; end: number; text: string }> {
  const found: Array<{ start: number; end: number; text: string }> = [];
  let i = path.indexOf('[?(');
  while (i >= 0) {
    // The expression ends at the ")]" that closes its parentheses, outside any quoted literal.
    let depth = 0;
    let quote: string | null = null;
    let j = i + 2;
    for (; j < path.length; j++) {
      const c = path[j]!;
      if (quote) {
        if (c === '\\') j++;
        else if (c === quote) quote = null;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '(') depth++;
      else if (c === ')' && --depth === 0) break;
    }
    if (depth !== 0 || path[j + 1] !== ']') throw new JsonPathError(`bad path ${JSON.stringify(path)}: a filter [?( ... )] is not closed`);
    found.push({ start: i + 3, end: j, text: path.slice(i + 3, j) });
    i = path.indexOf('[?(', j);
  }
  return found;
}

/** How a path is read; throws JsonPathError for one neither reader takes. */
function compile(template: string): CompiledPath {
  try {
    parsePath(template);
    return { kind: 'plain' };
  } catch (plainError) {
    const path = template.trim();
    if (!path.startsWith('$')) throw plainError;
    const filters = filtersOf(path);
    if (filters.length === 0) throw plainError;
    // {userId} outside a filter would be path text: refused, with the spelling that keeps it a value.
    let outside = path;
    for (const f of [...filters].reverse()) outside = outside.slice(0, f.start) + outside.slice(f.end);
    if (outside.includes(USER_PLACEHOLDER)) {
      throw new JsonPathError(`in a path with a filter, {userId} goes inside a filter: [?(@property == "{userId}")] selects the member named by the user`);
    }
    let bound = path;
    for (const f of [...filters].reverse()) bound = bound.slice(0, f.start) + bindUser(f.text) + bound.slice(f.end);
    return { kind: 'filter', path: bound };
  }
}

/** Throws JsonPathError (with why) for a path no reader takes: what a profile's save checks. */
export function checkProbePath(template: string): void {
  compile(template);
}

/** The value at the path for this user (null: the path holds no user, as an answer path), or why there is none. */
export function readProbePath(value: unknown, template: string, userId: string | null): PathReading {
  let compiled: CompiledPath;
  try {
    compiled = compile(template);
  } catch (err) {
    return { found: false, why: (err as Error).message };
  }
  if (compiled.kind === 'plain') return readPath(value, userId === null ? template : plainPathFor(template, userId));
  let matches: unknown[];
  try {
    const found: unknown = JSONPath({
      path: compiled.path,
      json: value as object,
      eval: 'safe',
      wrap: true,
      // A fresh sandbox each time: the evaluator writes its own names into it. Its evaluator looks
      // names up as an object's own properties; the typings call it a Map.
      sandbox: { [USER_VARIABLE]: userId ?? USER_PLACEHOLDER } as unknown as Map<string, unknown>,
    });
    matches = Array.isArray(found) ? found : [];
  } catch (err) {
    return { found: false, why: `the filter could not be evaluated: ${(err as Error).message}` };
  }
  if (matches.length === 0) return { found: false, why: `nothing matches ${template}` };
  if (matches.length > 1) return { found: false, why: `${matches.length} values match ${template}; narrow the filter to one` };
  return { found: true, value: matches[0] };
}
