// What the client SDK's handleError would receive for a refused pay: the operator answers 4XX with
// {errors: [{code, isClientSafe}]} (spec 2.6, 4.1, 7) and only errors whose isClientSafe is exactly
// true are passed to the front end. Everything else is swallowed, so support staff need to see which.

export interface ClientErrorReport {
  status: number;
  /** Codes of the errors handleError receives. */
  reaching: string[];
  /** Errors handleError does not receive, each with why. */
  withheld: Array<{ code: string | null; reason: string }>;
  /** Ways the body departs from the spec's error shape; empty when it conforms. */
  shapeProblems: string[];
}

function describe(value: unknown): string {
  if (value === undefined) return 'absent';
  if (value === null) return 'null';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (Array.isArray(value)) return 'an array';
  return `${typeof value === 'object' ? 'an object' : `the ${typeof value} ${String(value)}`}`;
}

/** null when the exchange is not a refused pay (a pay answered 4XX). */
export function clientErrorsOf(kind: string, status: number | null, responseText: string | null): ClientErrorReport | null {
  if (kind !== 'pay' || status === null || status < 400 || status > 499) return null;
  const report: ClientErrorReport = { status, reaching: [], withheld: [], shapeProblems: [] };
  let body: unknown;
  try {
    body = responseText === null ? undefined : JSON.parse(responseText);
  } catch {
    body = undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    report.shapeProblems.push(
      responseText === null || responseText.trim() === ''
        ? 'The response has no body; the spec expects {"errors":[{"code":…,"isClientSafe":…}]}.'
        : 'The response body is not a JSON object; the spec expects {"errors":[{"code":…,"isClientSafe":…}]}.',
    );
    return report;
  }
  const errors = (body as Record<string, unknown>).errors;
  if (!Array.isArray(errors)) {
    report.shapeProblems.push(`"errors" must be an array; it is ${describe(errors)}.`);
    return report;
  }
  if (errors.length === 0) report.shapeProblems.push('"errors" is empty: handleError receives nothing to show.');
  errors.forEach((entry, i) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      report.shapeProblems.push(`errors[${i}] must be an object with code and isClientSafe; it is ${describe(entry)}.`);
      report.withheld.push({ code: null, reason: 'not an object' });
      return;
    }
    const e = entry as Record<string, unknown>;
    const code = typeof e.code === 'string' ? e.code : null;
    if (code === null) report.shapeProblems.push(`errors[${i}].code must be a string; it is ${describe(e.code)}.`);
    if (e.isClientSafe === true) {
      report.reaching.push(code ?? `(errors[${i}] without a code)`);
    } else if (e.isClientSafe === false) {
      report.withheld.push({ code, reason: 'isClientSafe is false' });
    } else {
      report.shapeProblems.push(`errors[${i}].isClientSafe must be the boolean true or false; it is ${describe(e.isClientSafe)}.`);
      report.withheld.push({ code, reason: `isClientSafe is ${describe(e.isClientSafe)}, not true` });
    }
  });
  return report;
}
