// Validates response bodies against openapi.yaml: the schema of the operation's response for (method, path
// template, status) and content type, with Ajv's JSON Schema 2020-12 (OpenAPI 3.1 schemas are 2020-12). The whole
// document is added under an $id, so every `#/components/...` $ref resolves inside it.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const SPEC_PATH = fileURLToPath(new URL('../../../openapi.yaml', import.meta.url));
const DOC_ID = 'https://brook.local/openapi.json';

type Json = Record<string, unknown>;

export const openapi = parse(readFileSync(SPEC_PATH, 'utf8')) as { paths: Record<string, Record<string, Json>> } & Json;

const AjvClass = Ajv2020 as unknown as typeof Ajv2020.default;
const ajv = new AjvClass({ strict: false, allErrors: true });
(addFormats as unknown as typeof addFormats.default)(ajv);
ajv.addFormat('int32', {
  type: 'number',
  validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
});
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
ajv.addSchema({ ...openapi, $id: DOC_ID });

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function resolve(pointer: string): { node: Json; pointer: string } {
  let node: unknown = openapi;
  for (const token of pointer.split('/').slice(1)) node = (node as Json)[token.replace(/~1/g, '/').replace(/~0/g, '~')];
  const ref = (node as Json | undefined)?.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/')) return resolve(ref.slice(1));
  if (node === undefined) throw new Error(`openapi.yaml has nothing at ${pointer}`);
  return { node: node as Json, pointer };
}

/** Every (METHOD, path template) in openapi.yaml, e.g. "GET /v3/clusters/{cluster_id}". */
export function specOperations(): string[] {
  const operations: string[] = [];
  for (const [path, item] of Object.entries(openapi.paths)) {
    for (const method of Object.keys(item))
      if (HTTP_METHODS.includes(method)) operations.push(`${method.toUpperCase()} ${path}`);
  }
  return operations.sort();
}

const cache = new Map<string, ReturnType<typeof ajv.compile>>();

/**
 * Throws when the operation does not list `status`, or the body does not match its schema. `contentType` picks the
 * media type (default application/json, else the first listed); a response without content must have no body.
 */
export function validateResponse(
  method: string,
  pathTemplate: string,
  status: number,
  body: unknown,
  contentType = 'application/json',
): void {
  const operationPointer = `/paths/${escapePointer(pathTemplate)}/${method.toLowerCase()}`;
  if ((openapi.paths[pathTemplate] as Json | undefined)?.[method.toLowerCase()] === undefined) {
    throw new Error(`openapi.yaml has no operation ${method.toUpperCase()} ${pathTemplate}`);
  }
  const responses = resolve(`${operationPointer}/responses`).node;
  if (responses[String(status)] === undefined) {
    throw new Error(
      `openapi.yaml: ${method.toUpperCase()} ${pathTemplate} does not list status ${status} (body ${JSON.stringify(body)})`,
    );
  }
  const response = resolve(`${operationPointer}/responses/${status}`);
  const content = response.node.content as Json | undefined;
  if (content === undefined) {
    if (body !== undefined && body !== '' && body !== null)
      throw new Error(`${method} ${pathTemplate} ${status} has no content in openapi.yaml but a body was sent`);
    return;
  }
  const mediaType = contentType.split(';')[0].trim();
  const chosen = content[mediaType] !== undefined ? mediaType : Object.keys(content)[0];
  const schemaPointer = `${response.pointer}/content/${escapePointer(chosen)}/schema`;
  if ((content[chosen] as Json).schema === undefined) return;
  let validate = cache.get(schemaPointer);
  if (validate === undefined) {
    validate = ajv.compile({
      $ref: `${DOC_ID}#${schemaPointer
        .split('/')
        .map((t) => encodeURIComponent(t).replace(/%7E/g, '~'))
        .join('/')}`,
    });
    cache.set(schemaPointer, validate);
  }
  if (!validate(body)) {
    throw new Error(
      `${method.toUpperCase()} ${pathTemplate} ${status}: body does not match openapi.yaml (${schemaPointer}):\n` +
        `${ajv.errorsText(validate.errors, { separator: '\n' })}\nbody: ${JSON.stringify(body).slice(0, 2000)}`,
    );
  }
}
