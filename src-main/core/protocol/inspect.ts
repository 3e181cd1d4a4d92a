// The entry point that judges a message against the spec. It runs on every captured request and
// on whatever a user pastes, so it must never throw: any surprise becomes an error finding.
import type { Finding, FindingLevel, KeyFields } from '../../shared/model';
import { kindOfPath, type CallbackPathKind } from './callback-path';
import { findDuplicateKeys } from './duplicate-keys';
import { finding, isPlainObject, jsonTypeName } from './finding-text';
import { readJsonBody, type BodyRead } from './json-body';
import { keyFieldsOf, NO_KEY_FIELDS } from './key-fields';
import { MESSAGE_CHECKS } from './message-checks';

export { kindOfPath } from './callback-path';
export type { CallbackPathKind } from './callback-path';

export type MessageKind = 'pay' | 'results' | 'token-request' | 'token-response' | 'payment-error';
export const MESSAGE_KINDS: readonly MessageKind[] = ['pay', 'results', 'token-request', 'token-response', 'payment-error'];

/** Beyond this many findings the list stops helping; a summary finding says how many were left out. */
export const MAX_FINDINGS = 100;

const LEVEL_ORDER: Record<FindingLevel, number> = { error: 0, warning: 1, info: 2 };

export function inspect(kind: MessageKind, bytes: Uint8Array): Finding[] {
  return guarded(() => inspectUnguarded(kind, readJsonBody(bytes)));
}

/** Findings for a captured callback, chosen by its path; [] for paths that are not a callback. */
export function inspectCallback(path: string, bytes: Uint8Array): Finding[] {
  const kind = kindOfPath(path);
  return kind === 'other' ? [] : inspect(kind, bytes);
}

/**
 * A captured request's findings and key fields from ONE decode and parse of its body (the proxy runs
 * this on every capture). The keys are exactly extractKeyFields' (the same strict decoding).
 */
export function inspectCapture(kind: CallbackPathKind, bytes: Uint8Array): { findings: Finding[]; keys: KeyFields } {
  const { findings, keys } = inspectParsed(kind === 'other' ? null : kind, bytes);
  return { findings, keys };
}

/**
 * The one decode and parse of a body, with what is judged from it: the findings of the message it is
 * (none for null), its key fields, and the parse itself, for whoever reads the body next (the sandbox).
 * Never throws.
 */
export function inspectParsed(kind: MessageKind | null, bytes: Uint8Array): { findings: Finding[]; keys: KeyFields; read: BodyRead | null } {
  let read: BodyRead | null = null;
  if (kind === null) {
    try {
      read = readJsonBody(bytes);
    } catch {
      read = null;
    }
    return { findings: [], keys: read?.ok ? keyFieldsOf(read.value) : { ...NO_KEY_FIELDS }, read };
  }
  const findings = guarded(() => inspectUnguarded(kind, (read = readJsonBody(bytes))));
  const parsed = read as BodyRead | null;
  return { findings, keys: parsed?.ok ? keyFieldsOf(parsed.value) : { ...NO_KEY_FIELDS }, read: parsed };
}

/** Never throws: a surprise while reading or judging becomes an error finding. */
function guarded(run: () => Finding[]): Finding[] {
  try {
    return limit(sortByLevel(run()));
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return [finding('error', '$', `the desk could not inspect this body (internal error: ${reason})`)];
  }
}

function inspectUnguarded(kind: MessageKind, read: BodyRead): Finding[] {
  if (!read.ok) return read.findings;
  const findings = [...read.findings];
  const body = read.value;
  if (!isPlainObject(body)) {
    findings.push(finding('error', '$', `body must be a JSON object ({ ... }); got ${jsonTypeName(body)}`));
    return findings;
  }
  for (const dup of findDuplicateKeys(read.text)) {
    findings.push(
      finding(
        'warning',
        dup.path,
        `key ${JSON.stringify(dup.key)} appears ${dup.count} times in the same object; the desk shows the last value, but other parsers may use the first or refuse the body`,
      ),
    );
  }
  const check = MESSAGE_CHECKS[kind];
  if (check === undefined) {
    findings.push(finding('error', '$', `unknown message kind ${JSON.stringify(kind)}`));
    return findings;
  }
  findings.push(...check(body));
  return findings;
}

function sortByLevel(findings: Finding[]): Finding[] {
  // Array.prototype.sort is stable, so findings of one level keep the order of the body.
  return findings.sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level]);
}

function limit(findings: Finding[]): Finding[] {
  if (findings.length <= MAX_FINDINGS) return findings;
  const kept = findings.slice(0, MAX_FINDINGS - 1);
  const left = findings.length - kept.length;
  return [...kept, finding('info', '$', `${left} more findings not shown`)];
}
