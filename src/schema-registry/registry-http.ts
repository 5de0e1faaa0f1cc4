// What the registry's routes share at the HTTP level: their paths (Confluent's, at the root), the media type of
// every answer (application/vnd.schemaregistry.v1+json, errors included, as Confluent's registry sends), the
// reading of its query flags and path parameters, and which subjects a caller may see in a list.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registryErrors } from '../application/schemas/registry-errors.js';
import type { Authorizer } from '../security/authorizer.service.js';
import { hostOf, principalOf } from '../security/request-identity.js';

export const SCHEMA_REGISTRY_MEDIA_TYPE = 'application/vnd.schemaregistry.v1+json';

const REGISTRY_PATH = /^\/(?:subjects|schemas|config|compatibility|mode)(?:[/?]|$)/;

/** Whether a request URL is one of the registry's routes (the registry's own listener serves only those). */
export function isSchemaRegistryPath(url: string): boolean {
  return REGISTRY_PATH.test(url);
}

/** Sets the registry's media type on every answer of its routes. */
export function registerRegistryMediaType(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (isSchemaRegistryPath(request.url)) void reply.header('content-type', SCHEMA_REGISTRY_MEDIA_TYPE);
    done(null, payload);
  });
}

/** A boolean query parameter as Confluent reads one: `true` in any case is true, anything else false. */
export function flag(value: string | undefined): boolean {
  return value?.toLowerCase() === 'true';
}

const SUBJECT_CHARS_MAX = 1024;

/** Confluent's rule for a subject to write to: not empty, no control characters (42208). */
export function checkSubject(subject: string): string {
  // eslint-disable-next-line no-control-regex
  if (subject.trim().length === 0 || subject.length > SUBJECT_CHARS_MAX || /[\u0000-\u001f\u007f]/.test(subject)) {
    throw registryErrors.invalidSubject(subject);
  }
  return subject;
}

/** A schema id path parameter; anything but an id from 1 to 2^31-1 names no schema (40403). */
export function schemaIdParam(text: string): number {
  const id = /^\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (!(id >= 1 && id <= 0x7fff_ffff)) throw registryErrors.schemaNotFound();
  return id;
}

/** Whether the caller may see a subject in a list: DESCRIBE on it (anything when the authorizer is off). */
export function describableSubjects(authorizer: Authorizer, request: FastifyRequest): (subject: string) => boolean {
  const principal = principalOf(request);
  const host = hostOf(request);
  return (subject) => authorizer.authorize(principal, host, 'DESCRIBE', { type: 'SUBJECT', name: subject });
}
