// `npm run generate:client`: regenerates the CLI's typed HTTP client (src/cli/generated/brook-api.ts) from
// openapi.yaml with openapi-typescript, formatted with the repository's prettier settings so that lint passes
// unchanged. `node scripts/generate-client.mjs --out <file>` writes elsewhere (the staleness test compares a
// fresh generation with the committed file).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import prettier from 'prettier';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SPEC = resolve(ROOT, 'openapi.yaml');
const DEFAULT_OUT = resolve(ROOT, 'src/cli/generated/brook-api.ts');
const HEADER =
  '// Generated from openapi.yaml by `npm run generate:client` (openapi-typescript). Do not edit by hand:\n' +
  '// change openapi.yaml and regenerate; a unit test fails when this file is out of date.\n';

const outIndex = process.argv.indexOf('--out');
const out = outIndex === -1 ? DEFAULT_OUT : resolve(process.argv[outIndex + 1] ?? '');

// defaultNonNullable off: a property with a default is optional to send (fetch.min.bytes, ...), not required.
const ast = await openapiTS(pathToFileURL(SPEC), { alphabetize: true, defaultNonNullable: false, silent: true });
const options = (await prettier.resolveConfig(DEFAULT_OUT)) ?? {};
const source = await prettier.format(HEADER + astToString(ast), { ...options, parser: 'typescript' });
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, source);
