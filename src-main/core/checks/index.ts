// The edge-case catalog and the conformance check: what the desk and the CLI call.
export { EDGE_CASES, findEdgeCase, listEdgeCases, type EdgeCaseDef, type CaseBuild } from './catalog';
export { CONFORMANCE_CHECKS, CONFORMANCE_CHECK_IDS, NOT_OBSERVABLE } from './conformance';
export { runConformanceCheck, type CheckOptions } from './run-check';
export { runEdgeCase } from './run-edge-case';
export { reportMarkdown, reportJson, checkJson, checkLine } from './report-export';
export { errorBodyProblem } from './judge';
