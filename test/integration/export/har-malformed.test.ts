// A malformed HAR is refused whole, with the entry and field named, and nothing is stored.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { tempDir } from '../../helpers/temp';
import { sqliteOf, logOf } from '../../helpers/desk';

const fixtures = fileURLToPath(new URL('../../fixtures/har/', import.meta.url));
const chrome = JSON.parse(readFileSync(`${fixtures}chrome-devtools.har`, 'utf8'));

type Mutation = (har: { log: { entries: Array<Record<string, any>> } }) => void;

const cases: Array<[string, Mutation, string]> = [
  ['a method missing in a later entry', (h) => delete h.log.entries[2]!.request.method, 'entries[2].request.method: missing'],
  ['a relative URL', (h) => (h.log.entries[1]!.request.url = '/platform/pay'), 'entries[1].request.url: not an absolute http or https URL'],
  ['headers that are not a list', (h) => (h.log.entries[0]!.request.headers = { Host: 'x' }), 'entries[0].request.headers: not an array'],
  ['a header without a value', (h) => delete h.log.entries[1]!.request.headers[4].value, 'entries[1].request.headers[4].value: missing'],
  ['a bad date', (h) => (h.log.entries[0]!.startedDateTime = 'yesterday'), 'entries[0].startedDateTime: not a date'],
  [
    'bad base64',
    (h) => Object.assign(h.log.entries[0]!.request.postData, { text: '!!!', _encoding: 'base64' }),
    'entries[0].request.postData.text: not valid base64',
  ],
  ['an unknown encoding', (h) => (h.log.entries[1]!.response.content.encoding = 'gzip'), 'entries[1].response.content.text: unsupported encoding'],
  ['a body the tool left out', (h) => delete h.log.entries[0]!.request.postData, 'entries[0].request.postData: missing, though bodySize says'],
  ['a status that is text', (h) => (h.log.entries[0]!.response.status = '200'), 'entries[0].response.status: not an HTTP status'],
  ['no entries', (h) => delete (h.log as Record<string, unknown>).entries, 'log.entries: missing'],
  ['an entry that is not an object', (h) => (h.log.entries[1] = 'oops' as never), 'entries[1]: not an object'],
];

describe('malformed HAR files', () => {
  it.each(cases)('refuses %s, naming the entry and field, and stores nothing', async (_name, mutate, message) => {
    const desk = createDesk({ home: tempDir() });
    try {
      const har = structuredClone(chrome);
      mutate(har);
      const result = await desk.importHar(JSON.stringify(har), {});
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.code).toBe('bad-input');
      expect(result.error.message).toContain(message);
      expect(await logOf(desk).counts()).toEqual({ inbound: 0, outbound: 0 });
    } finally {
      await desk.close();
    }
  });

  it('refuses text that is not JSON, or JSON without a log', async () => {
    const desk = createDesk({ home: tempDir() });
    try {
      const notJson = await desk.importHar('{"log": ', {});
      expect(!notJson.ok && notJson.error.message).toMatch(/not JSON/);
      const noLog = await desk.importHar('{"entries": []}', {});
      expect(!noLog.ok && noLog.error.message).toContain('log: missing');
    } finally {
      await desk.close();
    }
  });

  it('rolls back every row when storing fails part-way', async () => {
    const desk = createDesk({ home: tempDir() });
    try {
      // A trigger that refuses the third row stands in for a disk failure in the middle of the import.
      sqliteOf(desk).exec(`CREATE TEMP TRIGGER refuse_third BEFORE INSERT ON exchanges
        WHEN (SELECT count(*) FROM exchanges) >= 2 BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
      const result = await desk.importHar(JSON.stringify(chrome), {});
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error.message).toContain('disk full');
      expect(await logOf(desk).counts()).toEqual({ inbound: 0, outbound: 0 });
    } finally {
      await desk.close();
    }
  });
});
