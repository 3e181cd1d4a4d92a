// The data the desk hands to its shells (Electron IPC, web mode, CLI), one file a feature.
// Pure types: no node:*, no electron, no DOM. Everything here is JSON-serializable,
// so the same values travel over IPC and HTTP unchanged.
export * from './exchanges';
export * from './profiles';
export * from './proxy';
export * from './retention';
export * from './signatures';
export * from './sandbox';
export * from './faults';
export * from './outbound';
export * from './checks';
export * from './tokens';
export * from './redelivery';
export * from './har';
export * from './errors';
