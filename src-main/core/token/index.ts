// Test tokens: request one from the service's create-token endpoint, decode it, keep the history.
export { requestToken, tokenHistory } from './token-client';
