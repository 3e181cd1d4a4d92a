export { ProxyController, type ProxyHost } from './controller';
export { CaptureServer } from './server';
export { DEFAULT_GUARD_RAILS, type CaptureEnv, type GuardRails } from './env';
export { DEFAULT_PROXY_HOST, DEFAULT_PROXY_PORT, exposureWarning, isLoopback, type ProxyStartOptions } from './options';
