// The edge-case catalog and the conformance check: what the desk and the CLI call.
export { listEdgeCases } from './catalog';
export { CONFORMANCE_CHECK_IDS } from './matrix';
export { runConformanceCheck } from './run-check';
export { runEdgeCase } from './run-edge-case';
export { reportMarkdown, reportJson, checkJson, checkLine, countsLine, runIdsPrefix } from './report-export';
export { reportJUnit } from './report-junit';
export { reportHtml } from './report-html';
