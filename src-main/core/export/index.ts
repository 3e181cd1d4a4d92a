// HAR in and out, cURL, ticket bundles: the formats staff share evidence in.
export { exportHar } from './har-export';
export { HarThread, harEntriesBuilder } from './har-thread';
export { importHar } from './har-import';
export { MAX_HAR_EXCHANGES } from './har-select';
export { curlForExchange, curlForDraft } from './curl-sources';
export { ticketBundle } from './ticket';
