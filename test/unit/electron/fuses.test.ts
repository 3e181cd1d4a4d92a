// Electron's fuses in the packaged app: electron-builder flips them from electron-builder.yml's
// electronFuses. Each one that keeps another local program from driving the process that holds the
// secrets must be set as asked, and the section must be valid for electron-builder's schema.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): unknown };
const config = yaml.load(readFileSync(join(process.cwd(), 'electron-builder.yml'), 'utf8')) as { electronFuses?: Record<string, unknown> };
const schema = require('app-builder-lib/scheme.json') as { definitions: Record<string, object> };

describe('electron-builder.yml sets the fuses', () => {
  it.each([
    ['runAsNode', false],
    ['enableNodeOptionsEnvironmentVariable', false],
    ['enableNodeCliInspectArguments', false],
    ['onlyLoadAppFromAsar', true],
    ['enableEmbeddedAsarIntegrityValidation', true],
    ['enableCookieEncryption', true],
  ])('%s is %s', (fuse, value) => {
    expect(config.electronFuses?.[fuse]).toBe(value);
  });

  it("uses only fuse names electron-builder's schema knows (a typo would be dropped without a word)", () => {
    const validate = new Ajv({ strict: false }).compile({ ...schema.definitions.FuseOptionsV1, definitions: schema.definitions });
    expect(validate(config.electronFuses), JSON.stringify(validate.errors)).toBe(true);
  });
});
