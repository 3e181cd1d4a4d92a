// One checker per message kind of the spec (section 2). Each receives the parsed body, already
// known to be a JSON object, and returns findings; none of them throws on odd values.
import type { Finding } from '../../shared/model';
import { checkFields, checkTable, checkValue, reportUnknownFields } from './check-fields';
import {
  FIELD_RULES,
  PAY_FIELDS,
  PAYMENT_ERROR_ENTRY_FIELDS,
  RESULT_FIELD_TABLE,
  TOKEN_DATA_FIELDS,
  TOKEN_REQUEST_FIELDS,
  TOKEN_RESPONSE_FIELDS,
  isResultValue,
} from './field-rules';
import type { FieldTable } from './field-rules';
import { describeValue, finding, indexPath, isPlainObject, jsonTypeName, pathOf } from './finding-text';

type Body = Record<string, unknown>;

export function checkPay(body: Body): Finding[] {
  return checkFields(body, PAY_FIELDS, { path: '$', what: 'a pay request' });
}

/** Fields whose rules do not depend on the result value: every result needs them. */
const COMMON_RESULT_FIELDS: FieldTable = { userId: 'required', depositId: 'required' };
/** The other fields a result may carry; their presence depends on the result value. */
const VARYING_RESULT_FIELDS: FieldTable = {
  roomId: 'optional',
  gameId: 'optional',
  currency: 'optional',
  amount: 'optional',
  tournamentId: 'optional',
};

export function checkResults(body: Body): Finding[] {
  const result = body.result;
  if (!isResultValue(result)) {
    // Without a known result value there is no row of the table to apply: report result itself,
    // userId/depositId (needed by every result), and type-check the other fields that are present.
    const ctx = { path: '$', what: 'a result request' };
    const findings: Finding[] = Object.hasOwn(body, 'result')
      ? checkValue('result', result, '$.result')
      : [finding('error', '$.result', `result is required but is missing; it must be ${FIELD_RULES.result.expect}`)];
    findings.push(...checkTable(body, COMMON_RESULT_FIELDS, ctx));
    findings.push(...checkTable(body, VARYING_RESULT_FIELDS, { ...ctx, typesOnly: true }));
    findings.push(...reportUnknownFields(body, ['result', ...Object.keys(COMMON_RESULT_FIELDS), ...Object.keys(VARYING_RESULT_FIELDS)], ctx));
    return findings;
  }
  return checkFields(body, RESULT_FIELD_TABLE[result], {
    path: '$',
    what: `a ${result} result`,
    nullMessage: (field) =>
      field === 'roomId' || field === 'gameId'
        ? `${field} is null, but null is allowed only in a REFUND result (this one is ${result}); it must be ${FIELD_RULES[field].expect}`
        : undefined,
  });
}

export function checkTokenRequest(body: Body): Finding[] {
  const findings = checkFields(body, TOKEN_REQUEST_FIELDS, { path: '$', what: 'a token request' });
  if (body.displayName === '') findings.push(finding('warning', '$.displayName', 'displayName is an empty string'));
  return findings;
}

// header.payload.signature, each base64url: the spec calls the token "JWT-like in form".
const JWT_FORM = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export function checkTokenResponse(body: Body): Finding[] {
  const findings = checkFields(body, TOKEN_RESPONSE_FIELDS, { path: '$', what: 'a token response', handled: ['data'] });
  const status = body.status;
  if (typeof status === 'number' && Number.isInteger(status) && status !== 200) {
    findings.push(finding('info', '$.status', `status is ${status}; the spec gives 200 for a successful token response`));
  }
  if (!Object.hasOwn(body, 'data')) {
    findings.push(finding('error', '$.data', 'data is required in a token response but is missing'));
    return findings;
  }
  const data = body.data;
  if (!isPlainObject(data)) {
    findings.push(finding('error', '$.data', `data must be an object holding token; got ${describeValue(data)}`));
    return findings;
  }
  findings.push(...checkFields(data, TOKEN_DATA_FIELDS, { path: '$.data', what: 'the data of a token response' }));
  const token = data.token;
  if (typeof token === 'string') {
    if (token === '') findings.push(finding('error', '$.data.token', 'data.token is an empty string; no token was issued'));
    else if (!JWT_FORM.test(token)) {
      findings.push(finding('info', '$.data.token', 'data.token does not look like a JWT (three base64url parts joined by dots)'));
    }
  }
  return findings;
}

export function checkPaymentError(body: Body): Finding[] {
  const findings = checkFields(body, {}, { path: '$', what: 'a payment error body', handled: ['errors'] });
  if (!Object.hasOwn(body, 'errors')) {
    findings.push(finding('error', '$.errors', 'errors is required in a payment error body but is missing'));
    return findings;
  }
  const errors = body.errors;
  if (!Array.isArray(errors)) {
    findings.push(finding('error', '$.errors', `errors must be an array of objects; got ${describeValue(errors)}`));
    return findings;
  }
  if (errors.length === 0) {
    findings.push(finding('warning', '$.errors', 'errors is an empty array; the client receives no error code'));
  }
  errors.forEach((entry: unknown, i) => {
    const path = indexPath('$.errors', i);
    if (!isPlainObject(entry)) {
      findings.push(finding('error', path, `each entry of errors must be an object with code and isClientSafe; got ${jsonTypeName(entry)}`));
      return;
    }
    findings.push(...checkFields(entry, PAYMENT_ERROR_ENTRY_FIELDS, { path, what: 'an entry of errors' }));
    if (entry.isClientSafe === false) {
      findings.push(finding('info', pathOf(path, 'isClientSafe'), "isClientSafe is false: this error is not passed to the client SDK's handleError"));
    }
  });
  return findings;
}

export const MESSAGE_CHECKS = {
  pay: checkPay,
  results: checkResults,
  'token-request': checkTokenRequest,
  'token-response': checkTokenResponse,
  'payment-error': checkPaymentError,
} as const;
