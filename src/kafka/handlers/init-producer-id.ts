// InitProducerId (22), v0-4 (KIP-98; v2 flexible; v3 carries the producer's current id and epoch, KIP-360): an
// idempotent producer's id and epoch, from the allocator POST /v3/clusters/{c}/producers uses
// (ProducerIdService: this broker's block of ids, epoch 0), so that a Kafka client and a REST producer never share
// an id. As in Kafka without a transactional id, every request gets a new id: the id and epoch a v3+ client names
// are not bumped (its next batches start at sequence 0 under the new id, which the partitions' producer state
// accepts). Brook has no transactions: a transactional id is answered TRANSACTIONAL_ID_AUTHORIZATION_FAILED, which
// librdkafka, kafkajs and Java treat as fatal for a transactional producer, so none runs against Brook by mistake.
// Authorization: none, as the REST route (route-rights.ts): what an idempotent producer writes is checked by
// Produce (WRITE on each topic).
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { kafkaFailure } from '../kafka-errors.js';
import { defineHandler } from '../kafka-handler.js';

const NO_PRODUCER = { producerId: -1, producerEpoch: -1 } as const;

export const initProducerIdHandler = defineHandler({
  api: 'InitProducerId',
  minVersion: 0,
  maxVersion: 4,
  ordering: 'exclusive',
  async handle(request, context) {
    if (request.body.transactionalId !== null) {
      return {
        throttleTimeMs: 0,
        errorCode: KafkaErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
        ...NO_PRODUCER,
      };
    }
    try {
      const { producerId, producerEpoch } = await context.services.producerIds.initProducerId();
      return { throttleTimeMs: 0, errorCode: KafkaErrorCode.NONE, producerId, producerEpoch };
    } catch (error) {
      return { throttleTimeMs: 0, errorCode: kafkaFailure(error).errorCode, ...NO_PRODUCER };
    }
  },
});
