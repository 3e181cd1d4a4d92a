// Drafts: requests ready to send, made from a capture, from a captured pay (its follow-up), or from
// a template. A draft keeps what describes the message (content type, signature, user agent) and
// drops what belonged to the connection it arrived on (Host, Content-Length, ...).
import type { Draft, HeaderList, ResultValue, TemplateKind } from '../../shared/model';
import { DEFAULT_TEST_USER, RESULT_VALUES } from '../../shared/model';
import type { ExchangeLog } from '../store/contract/exchange-log';
import { buildPay, buildResult, creditFor, followUpOf, isResultValue, toBytes } from '../protocol';
import { defaultStake } from '../protocol/amounts';
import { DEFAULT_CURRENCY } from '../../shared/money';
import { callbackPath, callbackRoute, DEFAULT_CALLBACK_PREFIX } from '../protocol/callback-path';
import { DeskFailure } from '../result';
import type { CallbackSettings } from '../protocol/callback-settings';
import { CONNECTION_HEADERS, withoutHeaders } from './headers';

const JSON_HEADERS: HeaderList = [['Content-Type', 'application/json']];
export const TEMPLATE_KINDS: readonly TemplateKind[] = ['pay', 'win', 'draw', 'lose', 'refund'];

const toBase64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

/** Where drafts read captured requests from. */
export interface DraftSource {
  readonly log: Pick<ExchangeLog, 'requestOf'>;
}

/** The captured request, read once; a token request cannot be sent again (its API key is not stored). */
async function captured(ctx: DraftSource, id: number) {
  const request = Number.isInteger(id) ? await ctx.log.requestOf(id) : null;
  if (!request) throw new DeskFailure('not-found', `No exchange with id ${id}.`);
  if (request.kind === 'token') {
    throw new DeskFailure(
      'bad-input',
      `Exchange ${id} is a token request: its API key is not stored, so it cannot be sent again. Request a new token instead.`,
    );
  }
  return request;
}

/** The captured request as a draft: same method, path, query, headers (minus connection headers) and bytes. */
export async function draftFromExchange(ctx: DraftSource, id: number): Promise<Draft> {
  return (await capturedDraft(ctx, id)).draft;
}

/** draftFromExchange, and whether the captured body was cut at the size limit (then it cannot be sent as it was). */
export async function capturedDraft(ctx: DraftSource, id: number): Promise<{ draft: Draft; truncated: boolean }> {
  const request = await captured(ctx, id);
  const draft = {
    method: request.method,
    path: `${request.path}${request.query ? `?${request.query}` : ''}`,
    headers: withoutHeaders(request.headers, CONNECTION_HEADERS),
    bodyBase64: request.body.toString('base64'),
    sourceId: id,
  };
  return { draft, truncated: request.truncated };
}

/**
 * Where the result of a captured pay goes: beside the pay (/acme/pay becomes /acme/results), since the
 * pay's path is where that operator mounts its callbacks; <prefix>/results when a prefix is given for
 * the run, or when the pay's path does not end in /pay.
 */
export function resultsPathFor(payPath: string, prefix?: string): string {
  if (prefix !== undefined) return callbackPath(prefix, 'results');
  const bare = payPath.split(/[?#]/)[0] ?? '';
  return /\/pay\/?$/.test(bare) ? bare.replace(/\/pay(\/?)$/, '/results$1') : callbackPath(DEFAULT_CALLBACK_PREFIX, 'results');
}

/** The result that settles a captured pay (same userId, depositId and currency), as a draft derived from it. */
export async function draftFollowUp(ctx: DraftSource, payId: number, result: ResultValue, options: { callbackPrefix?: string } = {}): Promise<Draft> {
  if (!isResultValue(result)) throw new DeskFailure('bad-input', `A follow-up is one of ${RESULT_VALUES.join(', ')}; got "${String(result)}".`);
  const request = await captured(ctx, payId);
  // A pay is a pay under any prefix: the captured path may predate the profile's prefix, or differ from it.
  if (request.kind !== 'pay' && callbackRoute(request.path, options.callbackPrefix ?? DEFAULT_CALLBACK_PREFIX).kind !== 'pay') {
    throw new DeskFailure('bad-input', `Exchange ${payId} is not a pay (its path is ${request.path}); a follow-up is built from a captured pay.`);
  }
  if (request.truncated) throw new DeskFailure('bad-input', `The body of exchange ${payId} was cut at the size limit; no follow-up can be built from it.`);
  let body: Uint8Array;
  try {
    body = toBytes(followUpOf(new Uint8Array(request.body), result));
  } catch (err) {
    throw new DeskFailure('bad-input', `Exchange ${payId}: ${(err as Error).message}`);
  }
  return {
    method: 'POST',
    path: resultsPathFor(request.path, options.callbackPrefix),
    headers: [...JSON_HEADERS],
    bodyBase64: toBase64(body),
    sourceId: payId,
  };
}

const TEMPLATE_RESULT: Record<Exclude<TemplateKind, 'pay'>, ResultValue> = { win: 'WIN', draw: 'DRAW', lose: 'LOSE', refund: 'REFUND' };

const DEFAULT_SETTINGS: CallbackSettings = { prefix: DEFAULT_CALLBACK_PREFIX, amounts: 'integer', currency: DEFAULT_CURRENCY };

/**
 * A fresh message of one kind from the protocol builders (fresh depositId and roomId), posted under the
 * profile's callback prefix, with the stake written as the profile writes amounts, in its currency.
 */
export function draftTemplate(kind: TemplateKind, userId: string = DEFAULT_TEST_USER, settings: CallbackSettings = DEFAULT_SETTINGS): Draft {
  if (!(TEMPLATE_KINDS as readonly string[]).includes(kind)) {
    throw new DeskFailure('bad-input', `A template is one of ${TEMPLATE_KINDS.join(', ')}; got "${String(kind)}".`);
  }
  if (typeof userId !== 'string' || userId === '') throw new DeskFailure('bad-input', 'A template needs a userId.');
  const stake = defaultStake(settings.amounts);
  const credit = kind === 'pay' ? null : creditFor(TEMPLATE_RESULT[kind], stake);
  const body =
    kind === 'pay'
      ? buildPay({ userId, amount: stake, currency: settings.currency })
      : buildResult(TEMPLATE_RESULT[kind], { userId, ...(credit === null ? {} : { amount: credit, currency: settings.currency }) });
  return {
    method: 'POST',
    path: callbackPath(settings.prefix, kind === 'pay' ? 'pay' : 'results'),
    headers: [...JSON_HEADERS],
    bodyBase64: toBase64(toBytes(body)),
    sourceId: null,
  };
}
