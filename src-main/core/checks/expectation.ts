// What a step of a check or an edge case expects of its answer, and how a report says it. Its own file:
// the steps declare expectations and the judge reads them, so neither imports the other for it.
export type Expectation = 'accepted' | '2XX' | '200' | '4XX' | 'error-body' | 'no-5XX';

export const EXPECTATION_TEXT: Record<Expectation, string> = {
  accepted: 'status 2XX, with a body that does not say the request was ignored',
  '2XX': 'status 2XX',
  '200': 'status 200',
  '4XX': 'status 4XX',
  'error-body':
    'status 4XX with a JSON body {"errors": [...]} whose errors have a string "code" and "isClientSafe": true (only those reach the client SDK\'s handleError)',
  'no-5XX': 'an answer that is not a 5XX (2XX, or a 4XX that says why)',
};
