// The schema formats' libraries (avsc for Avro, protobufjs for Protobuf, ajv with its draft classes and formats
// for JSON Schema), each loaded on its first use, not at start-up: a broker that never sees a schema would carry
// them for nothing (about 3 MB of live heap, which moves V8's full collections closer on the produce paths that
// never use them). They are CommonJS, so they load synchronously through `require` and the schema layer's
// functions stay synchronous: the first schema request of a format pays its load (tens of milliseconds).
// The files of the schema layer import these packages for their types only (`import type`).
import { createRequire } from 'node:module';
import type AvscModule from 'avsc';
import type AjvModule from 'ajv';
import type Ajv2019Module from 'ajv/dist/2019.js';
import type Ajv2020Module from 'ajv/dist/2020.js';
import type AjvDraft04Module from 'ajv-draft-04';
import type addFormatsModule from 'ajv-formats';
import type ProtobufModule from 'protobufjs';

const requireModule = createRequire(import.meta.url);

let avroLibrary: typeof AvscModule | undefined;
let protobufLibrary: typeof ProtobufModule | undefined;
let jsonSchemaClasses: JsonSchemaLibrary | undefined;

/** avsc, loaded on the first call. */
export function avsc(): typeof AvscModule {
  avroLibrary ??= requireModule('avsc') as typeof AvscModule;
  return avroLibrary;
}

/** protobufjs, loaded on the first call. */
export function protobufjs(): typeof ProtobufModule {
  protobufLibrary ??= requireModule('protobufjs') as typeof ProtobufModule;
  return protobufLibrary;
}

/** ajv's classes for the drafts Confluent supports, its formats and the draft-06 meta-schema. */
export interface JsonSchemaLibrary {
  Ajv: typeof AjvModule.default;
  Ajv2019: typeof Ajv2019Module.default;
  Ajv2020: typeof Ajv2020Module.default;
  AjvDraft04: typeof AjvDraft04Module.default;
  addFormats: typeof addFormatsModule.default;
  draft06MetaSchema: object;
}

/** ajv and the rest of JsonSchemaLibrary, loaded on the first call. */
export function jsonSchemaLibrary(): JsonSchemaLibrary {
  // These packages are CommonJS whose exports are the class (or plugin) itself.
  jsonSchemaClasses ??= {
    Ajv: requireModule('ajv') as typeof AjvModule.default,
    Ajv2019: requireModule('ajv/dist/2019.js') as typeof Ajv2019Module.default,
    Ajv2020: requireModule('ajv/dist/2020.js') as typeof Ajv2020Module.default,
    AjvDraft04: requireModule('ajv-draft-04') as typeof AjvDraft04Module.default,
    addFormats: requireModule('ajv-formats') as typeof addFormatsModule.default,
    draft06MetaSchema: requireModule('ajv/dist/refs/json-schema-draft-06.json') as object,
  };
  return jsonSchemaClasses;
}
