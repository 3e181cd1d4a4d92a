// The canary secrets of the secrecy tests: distinctive enough that finding one anywhere (in any of the
// encodings canary.ts searches) can only mean it leaked.
export const CANARY_SECRET = 'cnry-sign-Q7v2X9pL4mK8nB3zW6';
export const CANARY_API_KEY = 'cnry-apik-R5tY1uI0oP9aS8dF2g';
/** A second profile's secret: what the diagnosis finds when a callback was signed with it. */
export const CANARY_OTHER_SECRET = 'cnry-othr-H4jK6lZ8xC1vB5nM0q';
/** Given only on a command line's environment (--secret-env, --api-key-env): never stored at all. */
export const CANARY_ENV_SECRET = 'cnry-envs-T3yU7iO2pA6sD9fG1h';
export const CANARY_ENV_API_KEY = 'cnry-envk-J8kL2zX5cV0bN4mQ7w';

export const ALL_CANARIES = [CANARY_SECRET, CANARY_API_KEY, CANARY_OTHER_SECRET, CANARY_ENV_SECRET, CANARY_ENV_API_KEY] as const;
