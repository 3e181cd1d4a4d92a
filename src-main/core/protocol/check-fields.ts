// Checks one JSON object against a field table (which fields are required, nullable, optional or
// not listed) and the field rules (what each value must be). Every message kind uses this, so a
// missing depositId reads the same in a pay as in a result.
import type { Finding } from '../../shared/model';
import { FIELD_RULES } from './field-rules';
import type { FieldName, FieldTable } from './field-rules';
import { describeValue, finding, pathOf } from './finding-text';

export interface CheckContext {
  /** Path of the object ('$' for the body). */
  path: string;
  /** The message in words, for "... in <what>": "a pay request", "a WIN result". */
  what: string;
  /** Keys handled by the caller (nested objects): neither reported unknown nor checked here. */
  handled?: readonly string[];
  /** Message for a null where the table does not allow it; undefined for the generic one. */
  nullMessage?: (field: FieldName) => string | undefined;
  /** Only check types of present, non-null fields; say nothing of missing, null or unlisted ones (result value unknown). */
  typesOnly?: boolean;
}

/** Presence, null and type checks of the table's fields, then an info for every key the table does not know. */
export function checkFields(obj: Record<string, unknown>, table: FieldTable, ctx: CheckContext): Finding[] {
  return [...checkTable(obj, table, ctx), ...reportUnknownFields(obj, [...Object.keys(table), ...(ctx.handled ?? [])], ctx)];
}

/** Presence, null and type checks of the fields the table lists; other keys are left alone. */
export function checkTable(obj: Record<string, unknown>, table: FieldTable, ctx: CheckContext): Finding[] {
  const findings: Finding[] = [];
  for (const [field, presence] of Object.entries(table) as Array<[FieldName, NonNullable<FieldTable[FieldName]>]>) {
    const path = pathOf(ctx.path, field);
    const present = Object.hasOwn(obj, field);
    const value = obj[field];

    if (presence === 'absent') {
      if (present && !ctx.typesOnly) {
        findings.push(finding('info', path, `${field} is not listed for ${ctx.what}; the operator is expected to ignore it`));
      }
      continue;
    }
    if (!present) {
      if (presence !== 'optional' && !ctx.typesOnly) {
        findings.push(finding('error', path, `${field} is required in ${ctx.what} but is missing`));
      }
      continue;
    }
    if (value === null) {
      if (presence !== 'nullable' && !ctx.typesOnly) {
        const custom = ctx.nullMessage?.(field);
        findings.push(finding('error', path, custom ?? `${field} must be ${FIELD_RULES[field].expect}; got null`));
      }
      continue;
    }
    findings.push(...checkValue(field, value, path));
  }
  return findings;
}

/** An info per key outside `known`: the spec expects operators to ignore extra fields. */
export function reportUnknownFields(obj: Record<string, unknown>, known: readonly string[], ctx: CheckContext): Finding[] {
  const knownSet = new Set(known);
  return Object.keys(obj)
    .filter((key) => !knownSet.has(key))
    .map((key) => finding('info', pathOf(ctx.path, key), `unknown field ${key} (not part of ${ctx.what}); the operator is expected to ignore it`));
}

/** The type/format check of one present, non-null value, plus exact-text warnings. */
export function checkValue(field: FieldName, value: unknown, path: string): Finding[] {
  const rule = FIELD_RULES[field];
  if (!rule.schema.safeParse(value).success) {
    const hint = 'hint' in rule ? rule.hint(value) : undefined;
    const message = `${field} must be ${rule.expect}; got ${describeValue(value)}${hint ? ` (${hint})` : ''}`;
    return [finding('error', path, message)];
  }
  if ('exactText' in rule && typeof value === 'string') {
    if (value === '') return [finding('warning', path, `${field} is an empty string`)];
    if (value.trim() !== value) {
      return [finding('warning', path, `${field} has leading or trailing whitespace (${JSON.stringify(value)}); operators compare it exactly`)];
    }
  }
  return [];
}
