// ApiVersions (18), v0-3: the versions of every API this broker implements (advertised-versions.ts). Served before
// authentication, as Kafka does, so a client can learn the SASL versions first. An unsupported ApiVersions version
// never reaches this handler: the codec cannot decode it, and the connection answers it with the v0-shaped error
// (unsupportedApiVersionsAnswer below, KIP-511) so the client retries with a version it finds there.
import type { ApiVersionRange } from '../protocol/apis.js';
import { encodeResponse } from '../protocol/codec.js';
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { defineHandler, type KafkaHandler } from '../kafka-handler.js';

function apiKeys(ranges: readonly ApiVersionRange[]) {
  return ranges.map(({ apiKey, minVersion, maxVersion }) => ({ apiKey, minVersion, maxVersion }));
}

/** `advertised` is read at each request: the handler table builds it from every handler, this one included. */
export function apiVersionsHandler(advertised: () => readonly ApiVersionRange[]): KafkaHandler<'ApiVersions'> {
  return defineHandler({
    api: 'ApiVersions',
    minVersion: 0,
    maxVersion: 3,
    ordering: 'pipelined',
    beforeAuthentication: true,
    handle: () => ({ errorCode: KafkaErrorCode.NONE, apiKeys: apiKeys(advertised()), throttleTimeMs: 0 }),
  });
}

/** The answer to an ApiVersions request of a version this broker cannot decode: v0, UNSUPPORTED_VERSION. */
export function unsupportedApiVersionsAnswer(correlationId: number, advertised: readonly ApiVersionRange[]): Buffer[] {
  return encodeResponse('ApiVersions', 0, correlationId, {
    errorCode: KafkaErrorCode.UNSUPPORTED_VERSION,
    apiKeys: apiKeys(advertised),
    throttleTimeMs: 0,
  });
}
