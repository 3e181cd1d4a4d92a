// What the web mode's HTTP routes and the page agree on beyond JSON.

/**
 * Marks an answer of POST /api/<method> whose body is the method's text value itself (a HAR, a ticket, a
 * cURL command), rather than the Result's JSON: the desk does not escape a megabyte of text for the page
 * to parse back. Its value is `text`; failures and other values are the Result's JSON.
 */
export const TEXT_VALUE_HEADER = 'x-wager-desk-value';
