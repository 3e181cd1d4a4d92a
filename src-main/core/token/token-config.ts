// What a token request needs (service base URL, operator id, API key) from explicit values or the
// profile. A missing piece is named, with the way to set it, in one message.
import type { TokenRequest } from '../../shared/model';
import type { SecretLookups } from '../secrets';
import { checkBaseUrl } from '../base-url';
import { DeskFailure } from '../result';
import type { ProfileSecrets } from '../store/contract/profiles';

export interface TokenConfig {
  profile: ProfileSecrets | null;
  baseUrl: string;
  operatorId: string;
  apiKey: string;
  userId: string;
  displayName: string;
  /** For this call only: the token service's own setting, never the profile's (which is for its operator URL). */
  allowSelfSigned: boolean;
}

const given = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

export function tokenConfig(ctx: Pick<SecretLookups, 'profile'>, request: TokenRequest): TokenConfig {
  if (typeof request !== 'object' || request === null) throw new DeskFailure('bad-input', 'A token request is required.');
  const missingInput = [!given(request.userId) && 'userId (--user-id)', !given(request.displayName) && 'displayName (--display-name)'].filter(Boolean);
  if (missingInput.length > 0) throw new DeskFailure('bad-input', `A token request needs ${missingInput.join(' and ')}.`);

  const profile = ctx.profile(request.profile);
  const baseUrl = given(request.baseUrl) ? request.baseUrl : profile?.baseUrl;
  const operatorId = given(request.operatorId) ? request.operatorId : profile?.operatorId;
  const apiKey = given(request.apiKey) ? request.apiKey : profile?.apiKey;
  const missing: string[] = [];
  if (!given(baseUrl)) missing.push("the service base URL (--base-url URL, or the profile's --base-url)");
  if (!given(operatorId)) missing.push("the operator id (--operator-id ID, or the profile's --operator-id)");
  if (!given(apiKey)) missing.push("the API key (--api-key-env VAR, or the profile's --api-key-env)");
  if (missing.length > 0) {
    const where = profile
      ? `Profile "${profile.name}" lacks it; set it with \`wager-desk profile set ${profile.name} ...\` or in the Profiles screen.`
      : 'No profile is active: create one with `wager-desk profile set NAME --base-url URL --operator-id ID --api-key-env VAR`, or pass the values.';
    throw new DeskFailure(profile ? 'bad-input' : 'no-profile', `A token request needs ${missing.join('; ')}. ${where}`);
  }
  const target = checkBaseUrl('The service base URL', baseUrl as string);
  if (!given(request.apiKey)) checkStoredKeyTarget(profile!, target, request.confirmedBaseUrl);
  return {
    profile,
    baseUrl: target,
    operatorId: (operatorId as string).trim(),
    apiKey: apiKey as string,
    userId: request.userId,
    displayName: request.displayName,
    allowSelfSigned: request.allowSelfSigned === true,
  };
}

/**
 * The stored API key goes where its profile says: to the profile's base URL. Any other URL (typed in the
 * Tokens screen, or sent by whoever holds the local API) needs a key given for that call, or a
 * confirmation that names exactly that URL.
 */
function checkStoredKeyTarget(profile: ProfileSecrets, target: string, confirmed: string | undefined): void {
  const own = profile.baseUrl ? normalized(profile.baseUrl) : null;
  if (own !== null && own === normalized(target)) return;
  if (given(confirmed) && normalized(confirmed) === normalized(target)) return;
  const where = own === null ? `profile "${profile.name}" has no base URL` : `it goes only to profile "${profile.name}"'s base URL ${own}`;
  throw new DeskFailure(
    'needs-confirmation',
    `The stored API key would go to ${target}, but ${where}. Give an API key for this call (--api-key-env VAR), set the profile's base URL, or confirm that ${target} may receive the key (--confirm-base-url).`,
  );
}

/** Scheme and host in lower case, no trailing slash: two spellings of one URL compare equal. */
function normalized(url: string): string {
  try {
    return new URL(checkBaseUrl('The service base URL', url)).href.replace(/\/+$/, '');
  } catch {
    return url;
  }
}
