// A registry command as it travels from the broker a client called to the registry's leader: the RegistryCommand
// object itself as JSON. The leader checks its shape before running it (a peer is trusted, a malformed message is
// still refused with 400 rather than half understood).
import { errors } from '../../common/brook-error.js';
import { COMPATIBILITY_LEVELS } from './compatibility.js';
import type { RegistryCommand } from './registry-commands.js';
import { REGISTRY_MODES } from './registry-records.js';
import { SCHEMA_TYPES } from './schema-types.js';

const bad = (what: string) => errors.badRequest(`Malformed registry command: ${what}.`);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isSubject = (value: unknown): value is string | null => value === null || isText(value);
const isVersion = (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value) && value > 0;

export function parseRegistryCommand(json: unknown): RegistryCommand {
  if (!isObject(json)) throw bad('not an object');
  const c = json;
  switch (c.op) {
    case 'register': {
      const schema = c.schema;
      if (!isText(c.subject) || !isObject(schema) || typeof schema.schema !== 'string') throw bad('register');
      if (!(SCHEMA_TYPES as readonly unknown[]).includes(schema.schemaType)) throw bad('schemaType');
      if (schema.references !== undefined && !Array.isArray(schema.references)) throw bad('references');
      if (typeof c.normalize !== 'boolean') throw bad('normalize');
      if ((c.id !== undefined && !isVersion(c.id)) || (c.version !== undefined && !isVersion(c.version))) {
        throw bad('id or version');
      }
      return c as unknown as RegistryCommand;
    }
    case 'delete-version':
      if (!isText(c.subject) || !(c.version === 'latest' || isVersion(c.version)) || typeof c.permanent !== 'boolean') {
        throw bad('delete-version');
      }
      return c as unknown as RegistryCommand;
    case 'delete-subject':
      if (!isText(c.subject) || typeof c.permanent !== 'boolean') throw bad('delete-subject');
      return c as unknown as RegistryCommand;
    case 'set-config': {
      const config = c.config;
      if (!isSubject(c.subject) || !isObject(config)) throw bad('set-config');
      if (!(COMPATIBILITY_LEVELS as readonly unknown[]).includes(config.compatibilityLevel)) throw bad('level');
      if (config.normalize !== undefined && typeof config.normalize !== 'boolean') throw bad('normalize');
      return c as unknown as RegistryCommand;
    }
    case 'set-mode':
      if (!isSubject(c.subject) || !(REGISTRY_MODES as readonly unknown[]).includes(c.mode)) throw bad('set-mode');
      if (typeof c.force !== 'boolean') throw bad('force');
      return c as unknown as RegistryCommand;
    case 'delete-config':
    case 'delete-mode':
      if (!isSubject(c.subject)) throw bad(String(c.op));
      return c as unknown as RegistryCommand;
    default:
      throw bad(`unknown op ${JSON.stringify(c.op)}`);
  }
}
