// The HAR reader keeps the recorder's own count of the request bytes, so that a body the recorder
// changed (pretty-printed, re-encoded) is named as such instead of blaming the signing secret.
import { describe, expect, it } from 'vitest';
import { readHar, recorderChangeNote, withRecorderNote } from '../../../src-main/core/export/har-read';
import { checkSignature, sign } from '../../../src-main/core/signing';

const SECRET = 'har-secret';
const sent = '{"userId":"u1","depositId":"wd-1","currency":"USD","amount":100}';
const recorded = JSON.stringify(JSON.parse(sent), null, 2);

function har(text: string, bodySize: unknown): string {
  return JSON.stringify({
    log: {
      creator: { name: 'some recorder' },
      entries: [
        {
          startedDateTime: '2026-01-02T03:04:05.000Z',
          time: 5,
          request: {
            method: 'POST',
            url: 'https://op.example/acme/pay',
            headers: [{ name: 'x-server-authorization', value: sign(Buffer.from(sent), SECRET) }],
            postData: { mimeType: 'application/json', text },
            ...(bodySize === undefined ? {} : { bodySize }),
          },
          response: { status: 200, headers: [], content: { text: '{}' } },
        },
      ],
    },
  });
}

describe('HAR request bodySize', () => {
  it('exposes the recorded bodySize and whether it disagrees with the bytes of postData.text', () => {
    const [same] = readHar(har(sent, Buffer.byteLength(sent))).entries;
    expect(same).toMatchObject({ bodySize: Buffer.byteLength(sent), bodySizeDiffers: false });
    expect(recorderChangeNote(same!)).toBeNull();

    const [changed] = readHar(har(recorded, Buffer.byteLength(sent))).entries;
    expect(changed).toMatchObject({ bodySize: Buffer.byteLength(sent), bodySizeDiffers: true });
    expect(recorderChangeNote(changed!)).toBe(`the recorder changed the body: bodySize ${Buffer.byteLength(sent)}, text ${Buffer.byteLength(recorded)} bytes`);
  });

  it('counts bytes, not characters, and treats absent, 0 and -1 as not counted', () => {
    const accented = '{"userId":"usér"}';
    expect(readHar(har(accented, Buffer.byteLength(accented))).entries[0]!.bodySizeDiffers).toBe(false);
    expect(readHar(har(accented, accented.length)).entries[0]!.bodySizeDiffers).toBe(true);
    for (const size of [undefined, 0, -1, 'x']) {
      expect(readHar(har(recorded, size)).entries[0]).toMatchObject({ bodySize: null, bodySizeDiffers: false });
    }
  });

  it('explains a mismatch by the recording, not by the secret', () => {
    const [entry] = readHar(har(recorded, Buffer.byteLength(sent))).entries;
    const verdict = checkSignature(entry!.body, sign(Buffer.from(sent), SECRET), [{ profile: 'p', secret: SECRET, primary: true }]);
    expect(verdict.verdict).toBe('mismatch');
    const explained = withRecorderNote(verdict, entry!);
    expect(explained.verdict).toBe('mismatch');
    expect(explained.diagnosis?.match?.variant).toBe('recorder-changed-body');
    expect(explained.diagnosis?.summary).toContain('The recorder changed the body');
    // The compact re-serialization of the recorded text is what was sent: said as the likely original.
    expect(explained.diagnosis?.summary).toContain('compact JSON');

    const unknownChange = withRecorderNote(
      checkSignature(entry!.body, sign(Buffer.from('{"other":1}'), SECRET), [{ profile: 'p', secret: SECRET, primary: true }]),
      entry!,
    );
    expect(unknownChange.diagnosis?.summary).toContain('says nothing about the secret');
    // A HAR whose counts agree is left as it is.
    const [same] = readHar(har(sent, Buffer.byteLength(sent))).entries;
    expect(withRecorderNote(verdict, same!)).toBe(verdict);
  });
});
