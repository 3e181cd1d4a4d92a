// Field edits for `--set PATH=VALUE` and `--unset PATH` on a JSON body. Paths are written like the
// paths of findings ('$.errors[0].code'), so a user can copy one from a finding; the '$' is
// optional and dots work for indexes too ('errors.0.code'). Edits work on a deep clone: the caller's
// value (often a captured body kept in the log) is never changed.

export class JsonPathError extends Error {
  override name = 'JsonPathError';
}

/** One step of a path. `index` is set when the step is a whole number and so may address an array. */
interface Step {
  key: string;
  index: number | null;
  /** Written as [n] or ["key"]: for [n], a missing container is created as an array. */
  bracket: boolean;
}

export function parsePath(path: string): Step[] {
  let rest = path.trim();
  if (rest === '') throw new JsonPathError('empty path: name a field (amount, errors[0].code) or $ for the whole body');
  if (rest.startsWith('$')) rest = rest.slice(1);
  const steps: Step[] = [];
  let first = true;
  while (rest.length > 0) {
    if (rest.startsWith('[')) {
      const quoted = /^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
      const numeric = /^\[(\d+)\]/.exec(rest);
      if (quoted?.[1] !== undefined) {
        steps.push({ key: JSON.parse(quoted[1]) as string, index: null, bracket: true });
        rest = rest.slice(quoted[0].length);
      } else if (numeric?.[1] !== undefined) {
        steps.push({ key: numeric[1], index: Number(numeric[1]), bracket: true });
        rest = rest.slice(numeric[0].length);
      } else {
        throw new JsonPathError(`bad path ${JSON.stringify(path)}: after "[" write a number or a quoted key, then "]"`);
      }
    } else {
      if (rest.startsWith('.')) rest = rest.slice(1);
      else if (!first) throw new JsonPathError(`bad path ${JSON.stringify(path)}: expected "." or "[" at ${JSON.stringify(rest)}`);
      const name = /^[^.[\]]+/.exec(rest)?.[0];
      if (name === undefined) throw new JsonPathError(`bad path ${JSON.stringify(path)}: empty field name`);
      steps.push({ key: name, index: /^(0|[1-9]\d*)$/.test(name) ? Number(name) : null, bracket: false });
      rest = rest.slice(name.length);
    }
    first = false;
  }
  return steps;
}

/** A path as findings write it, for error messages. */
function show(steps: Step[]): string {
  let out = '$';
  for (const step of steps) {
    if (step.index !== null && step.bracket) out += `[${step.index}]`;
    else if (step.index !== null || /^[A-Za-z_$][\w$]*$/.test(step.key)) out += `.${step.key}`;
    else out += `[${JSON.stringify(step.key)}]`;
  }
  return out;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Own-property write that cannot touch a prototype, even for a key named "__proto__". */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** The container that holds the last step, created along the way when `create` is set. */
function walk(root: unknown, steps: Step[], create: boolean): unknown {
  let node = root;
  for (let i = 0; i < steps.length - 1; i++) {
    const step = steps[i] as Step;
    const here = steps.slice(0, i + 1);
    let child = childOf(node, step, steps.slice(0, i));
    if (child === undefined) {
      if (!create) throw new JsonPathError(`nothing at ${show(here)}`);
      child = (steps[i + 1] as Step).bracket && (steps[i + 1] as Step).index !== null ? [] : {};
      assign(node, step, child, steps.slice(0, i));
    } else if (typeof child !== 'object' || child === null) {
      throw new JsonPathError(`cannot go into ${show(here)}: it is ${describe(child)}, not an object or array`);
    }
    node = child;
  }
  return node;
}

function childOf(node: unknown, step: Step, at: Step[]): unknown {
  if (Array.isArray(node)) return node[arrayIndex(node, step, at)];
  if (typeof node === 'object' && node !== null) {
    if (step.bracket && step.index !== null) {
      throw new JsonPathError(`${show(at)} is an object, not an array; write .${step.key} for a key named "${step.key}"`);
    }
    return Object.hasOwn(node, step.key) ? (node as Record<string, unknown>)[step.key] : undefined;
  }
  throw new JsonPathError(`cannot go into ${show(at)}: it is ${describe(node)}, not an object or array`);
}

function arrayIndex(node: unknown[], step: Step, at: Step[]): number {
  if (step.index === null) throw new JsonPathError(`${show(at)} is an array; use a number index, not ${JSON.stringify(step.key)}`);
  return step.index;
}

function assign(node: unknown, step: Step, value: unknown, at: Step[]): void {
  if (Array.isArray(node)) {
    const index = arrayIndex(node, step, at);
    if (index > node.length) {
      throw new JsonPathError(`cannot set ${show([...at, step])}: the array at ${show(at)} has ${node.length} items, so the next index is ${node.length}`);
    }
    node[index] = value;
  } else {
    childOf(node, step, at); // validates the step against an object
    put(node as Record<string, unknown>, step.key, value);
  }
}

/** A copy of `obj` with `value` at `path`; missing objects and arrays on the way are created. '$' replaces the whole value. */
export function setPath(obj: unknown, path: string, value: unknown): unknown {
  const steps = parsePath(path);
  if (value === undefined) throw new JsonPathError(`no value to set at ${path}: undefined is not a JSON value (use unset to remove)`);
  const copy = structuredClone(value);
  if (steps.length === 0) return copy;
  const root = structuredClone(obj);
  const last = steps[steps.length - 1] as Step;
  assign(walk(root, steps, true), last, copy, steps.slice(0, -1));
  return root;
}

/** A copy of `obj` without the member at `path` (array items after it move up). Throws when there is nothing there. */
export function unsetPath(obj: unknown, path: string): unknown {
  const steps = parsePath(path);
  if (steps.length === 0) throw new JsonPathError('cannot remove the whole body ($); give a field path');
  const root = structuredClone(obj);
  const last = steps[steps.length - 1] as Step;
  const at = steps.slice(0, -1);
  const parent = walk(root, steps, false);
  if (childOf(parent, last, at) === undefined) {
    const fields = Array.isArray(parent) ? `${parent.length} items` : `fields: ${Object.keys(parent as object).join(', ') || 'none'}`;
    throw new JsonPathError(`nothing to remove at ${show(steps)} (${show(at)} has ${fields})`);
  }
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, at), 1);
  else delete (parent as Record<string, unknown>)[last.key];
  return root;
}

/** A --set value: JSON where it parses (5, true, null, "5", {"a":1}), otherwise the text itself (USD). */
export function parseCliValue(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/** What a path reads in a value: found with the value, or why nothing is there (for a report). */
export type PathReading = { found: true; value: unknown } | { found: false; why: string };

/** The value at `path` ('$' is the whole value), never throwing for a missing member: a reading says why. */
export function readPath(obj: unknown, path: string): PathReading {
  let steps: Step[];
  try {
    steps = parsePath(path);
  } catch (err) {
    return { found: false, why: (err as Error).message };
  }
  let node = obj;
  for (let i = 0; i < steps.length; i++) {
    const at = steps.slice(0, i);
    try {
      node = childOf(node, steps[i] as Step, at);
    } catch (err) {
      return { found: false, why: (err as Error).message };
    }
    if (node === undefined) return { found: false, why: `nothing at ${show(steps.slice(0, i + 1))}` };
  }
  return { found: true, value: node };
}
