// The versions an ApiVersions answer advertises, derived from the handler table (handler-table.ts) and nothing
// else, so that an API without a handler is never advertised: Tansu's rule, since kafkajs takes min(its max,
// the broker's max) and ignores the broker's minimum, librdkafka and Java check the whole range, and every version
// up to an advertised max must therefore work. A handler's range must lie within what the codec covers (apis.ts);
// a handler outside it is a bug found when this module loads.
import { ADVERTISED_VERSION_RANGES, type ApiVersionRange } from './protocol/apis.js';
import type { AnyKafkaHandler } from './kafka-handler.js';

export function advertisedVersions(handlers: readonly AnyKafkaHandler[]): readonly ApiVersionRange[] {
  const seen = new Set<string>();
  const ranges = handlers.map((handler): ApiVersionRange => {
    if (seen.has(handler.api)) throw new Error(`the Kafka handler table lists ${handler.api} twice`);
    seen.add(handler.api);
    const codec = ADVERTISED_VERSION_RANGES.find((range) => range.name === handler.api);
    const minVersion = handler.advertisedMinVersion ?? handler.minVersion;
    if (
      codec === undefined ||
      minVersion < codec.minVersion ||
      handler.maxVersion > codec.maxVersion ||
      minVersion > handler.maxVersion
    ) {
      throw new Error(
        `the ${handler.api} handler's versions ${minVersion}-${handler.maxVersion} are outside what the codec ` +
          `covers (${codec?.minVersion}-${codec?.maxVersion})`,
      );
    }
    return { apiKey: codec.apiKey, name: handler.api, minVersion, maxVersion: handler.maxVersion };
  });
  return ranges.sort((a, b) => a.apiKey - b.apiKey);
}
