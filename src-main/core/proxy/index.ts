export { ProxyController, type ProxyHost } from './controller';
export { DEFAULT_GUARD_RAILS, type CaptureEnv, type GuardRails } from './env';
export { DEFAULT_PROXY_HOST, DEFAULT_PROXY_PORT, exposureWarning, type ProxyStartOptions } from './options';
export type { CaptureRows, CaptureTx, CaptureWriter, WriteDone } from '../store/contract/capture-writer';
