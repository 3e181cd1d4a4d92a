// The quoting is only right if a real shell gives the bytes back: every case runs through bash (and
// the printf form through dash too, the /bin/sh of Debian).
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPasteSafeText, printfFormat, shellArg, singleQuote } from '../../../src-main/core/export/shell-quote';

const bashPrint = (arg: string): Buffer => execFileSync('bash', ['-c', `printf '%s' ${arg}`]);

describe('shell quoting', () => {
  it('single quotes keep everything, quotes included', () => {
    const text = `it's "$HOME" \`id\` \\n 100% \n end`;
    expect(bashPrint(singleQuote(text)).toString('utf8')).toBe(text);
  });

  it('leaves plain words bare and quotes anything with shell syntax', () => {
    expect(shellArg('POST')).toBe('POST');
    expect(shellArg('a b')).toBe("'a b'");
    expect(shellArg('x&y')).toBe("'x&y'");
    expect(bashPrint(shellArg('tab\there')).toString('utf8')).toBe('tab\there');
  });

  it('tells paste-safe text from text with control characters', () => {
    expect(isPasteSafeText('{"a":\n"b"}')).toBe(true);
    expect(isPasteSafeText('a\tb')).toBe(false);
    expect(isPasteSafeText('a\rb')).toBe(false);
  });

  it('printf formats reproduce any bytes in bash and dash', () => {
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const dashFirst = Buffer.from('-x %d \\ -');
    for (const shell of ['bash', 'sh']) {
      expect(execFileSync(shell, ['-c', `printf ${printfFormat(all)}`]).equals(all)).toBe(true);
      expect(execFileSync(shell, ['-c', `printf ${printfFormat(dashFirst)}`]).equals(dashFirst)).toBe(true);
    }
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 64 }).chain((b) => fc.constantFrom(b, Buffer.concat([Buffer.from('-'), b]))),
        (bytes) => {
          expect(execFileSync('bash', ['-c', `printf ${printfFormat(bytes)}`]).equals(Buffer.from(bytes))).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('any string argument comes back from bash unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', "'", '"', '\\', '$', '`', '\n', '\t', '\r', '\u0001', 'é', '🎲', '!', '%') }), (text) => {
        expect(bashPrint(shellArg(text)).toString('utf8')).toBe(text);
      }),
      { numRuns: 25 },
    );
  });
});
