// HAR in and out, cURL, ticket bundles: the formats staff share evidence in.
export { exportHar } from './har-export';
export { importHar, type HarImportOptions, type HarImportResult } from './har-import';
export { readHar, type HarRead, type HarReadEntry } from './har-read';
export { buildHar, harEntry, HAR_CREATOR } from './har-build';
export { selectForHar, type HarQuery } from './har-select';
export { curlForExchange, curlForDraft } from './curl-sources';
export { curlCommand, type CurlRequest } from './curl';
export { ticketBundle } from './ticket';
export { redactedMarker, redactHeaders, storedSecrets, isRedacted } from '../redact';
export type { Har, HarEntry } from './har-types';
