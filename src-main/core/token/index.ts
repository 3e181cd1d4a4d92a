// Test tokens: request one from the service's create-token endpoint, decode it, keep the history.
export { requestToken, tokenHistory, TOKEN_PATH } from './token-client';
export { decodeToken, UNVERIFIED_NOTE } from './decode';
export { tokenConfig, type TokenConfig } from './token-config';
