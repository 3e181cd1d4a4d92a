// What a step sent, in one line for a report: the path, the signature, copies, and the body cut short.
import { callbackPath } from '../../protocol/callback-path';
import type { CaseStep, StepEnv } from '../steps';

const SIGNATURES: Record<NonNullable<CaseStep['signature']>, string> = {
  valid: 'signed',
  none: 'no signature',
  invalid: 'a wrong signature',
  'other-secret': 'signed with a throw-away secret',
  'neighbour-secret': 'signed with a neighbouring secret',
  uppercase: 'signature in uppercase hex',
  compact: 'signed over the compact form',
  trimmed: 'signed over the trimmed body',
  'empty-object': 'signed over {}',
};

export function describeStep(step: CaseStep, env: StepEnv): string {
  const text = Buffer.from(step.body).toString('utf8').replace(/\s+/g, ' ').trim();
  const body = text === '' ? '(empty body)' : text.length > 140 ? `${text.slice(0, 140)}…` : text;
  let signature = SIGNATURES[step.signature ?? 'valid'];
  if (step.signature === 'neighbour-secret')
    signature = env.neighbourSecret
      ? `signed with ${env.neighbourSecret.label}`
      : 'signed with a throw-away secret (the profile has no previous secret and no other profile has one)';
  const copies = (step.copies ?? 1) > 1 ? ` ×${step.copies} at once` : '';
  return `${step.label}: POST ${callbackPath(env.callbackPrefix, step.to)}${copies}, ${signature}${step.contentType === undefined ? '' : `, Content-Type ${step.contentType ?? 'none'}`}: ${body}`;
}
