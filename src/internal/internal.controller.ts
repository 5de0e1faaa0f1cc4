// The broker-to-broker routes (INTERNAL_PREFIX, guarded by the cluster secret): what a non-leader forwards to a
// partition leader (produce with the leader epoch it believes, read, offsets; record batches as stored, never JSON
// per record), followers' fetches from their leader, what a broker
// forwards to the controller (admin commands), what a restoring controller asks every broker (its metadata
// snapshot), the producer-id blocks other brokers took, and the broker's cluster status (for operators and tests). Not in openapi.yaml: not public.
import { clientGone, clientGoneSignal } from '../common/client-gone.js';
import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import { BATCHES_MEDIA_TYPE } from '../cluster/peer-client.js';
import { errors } from '../common/brook-error.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { ControllerElection } from '../controller-election/controller-election.service.js';
import { type ControllerCommand, ControllerService } from '../controller-election/controller.service.js';
import {
  HIGH_WATERMARK_HEADER,
  LOG_START_OFFSET_HEADER,
  NEXT_OFFSET_HEADER,
} from '../replication/partition-router.service.js';
import { answerHeaders } from '../replication/replica-fetch-protocol.js';
import { ReplicaManager } from '../replication/replica-manager.service.js';
import { MetadataCache } from '../topic/metadata-cache.service.js';
import { serializeSnapshot } from '../topic/metadata-snapshot.js';
import { ClusterSecretGuard } from './cluster-secret.guard.js';
import { replicaFetchRequest, writeBatchesAnswer } from './replica-fetch-route.js';
import { acksParam, integerParam } from '../application/params.js';
import { ClusterStatsService } from '../application/observability/cluster-stats.service.js';

@Controller('internal/v1')
@UseGuards(ClusterSecretGuard)
export class InternalController {
  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly election: ControllerElection,
    private readonly controller: ControllerService,
    private readonly metadata: MetadataCache,
    private readonly replicas: ReplicaManager,
    private readonly stats: ClusterStatsService,
  ) {}

  @Get('status')
  status() {
    return {
      broker_id: this.config.brokerId,
      broker_epoch: this.election.brokerEpoch,
      is_controller: this.election.isController(),
      controller_epoch: this.election.isController() ? this.election.currentControllerEpoch() : -1,
      highest_controller_epoch_seen: this.election.highestControllerEpochSeen,
      topics: this.metadata.allTopics().size,
    };
  }

  /** This broker's part of the cluster statistics (sizes of the partitions it leads, its topic rates, epochs). */
  @Get('stats')
  localStats() {
    return this.stats.localStats();
  }

  @Get('metadata-snapshot')
  snapshot(@Res({ passthrough: true }) reply: FastifyReply) {
    void reply.header('content-type', 'application/json');
    return serializeSnapshot(this.metadata.snapshot());
  }

  /**
   * A producer-id block another broker took (application/idempotence/producer-ids.service.ts): kept in this
   * broker's data dir before the answer, so that a restore of an emptied store raises the block counter above it
   * even while the broker that took it is down.
   */
  @Post('producer-id-blocks')
  @HttpCode(204)
  async producerIdBlock(@Body() body: { block?: unknown }): Promise<void> {
    const block = body?.block;
    if (typeof block !== 'number' || !Number.isSafeInteger(block) || block < 1) {
      throw errors.invalidRequest('block must be a positive integer.');
    }
    await this.election.observeProducerIdBlock(block);
  }

  /**
   * The controller's push after it changed the metadata, stamped with its epoch: a hint to reload from the store
   * now (the store watch and the periodic reconcile would get there too). A stale epoch is refused with 409, and
   * the controller that sent it resigns.
   */
  @Post('metadata/updates')
  async metadataUpdate(@Body() update: { controller_epoch?: unknown }) {
    const epoch = update?.controller_epoch;
    if (typeof epoch !== 'number' || !Number.isSafeInteger(epoch) || epoch < 0) {
      throw errors.invalidRequest('controller_epoch must be a non-negative integer.');
    }
    const highest = this.election.highestControllerEpochSeen;
    if (epoch < highest) throw errors.staleControllerEpoch(epoch, highest);
    this.election.observeControllerEpoch(epoch);
    await this.metadata.reload();
    return { highest_controller_epoch_seen: this.election.highestControllerEpochSeen };
  }

  @Post('controller/commands')
  async command(@Body() command: ControllerCommand) {
    if (typeof command !== 'object' || command === null) throw errors.invalidRequest('A command object is required.');
    return { result: (await this.controller.execute(command)) ?? null };
  }

  @Post('partitions/:topic/:partition/records')
  async produce(
    @Param('topic') topic: string,
    @Param('partition') partitionText: string,
    @Query('acks') acks: string | undefined,
    @Query('leader_epoch') leaderEpoch: string | undefined,
    @Query('sequence_gaps') sequenceGaps: string | undefined,
    @Query('key_producers') keyProducers: string | undefined,
    @Body() batch: unknown,
  ) {
    if (!Buffer.isBuffer(batch)) throw errors.badRequest(`Send the record batch as ${BATCHES_MEDIA_TYPE}.`);
    const partition = integerParam(partitionText, 'partition');
    const epoch = leaderEpoch === undefined ? undefined : integerParam(leaderEpoch, 'leader_epoch');
    const options = {
      expectedLeaderEpoch: epoch,
      sequenceGaps: sequenceGaps === 'true',
      keyProducers: keyProducers === 'true',
    };
    return { append: await this.replicas.produce(topic, partition, batch, acksParam(acks), options) };
  }

  /** This broker's replica of a partition whatever its role: offsets, HW, epochs (operators and fault tests). */
  @Get('partitions/:topic/:partition/replica')
  replica(@Param('topic') topic: string, @Param('partition') partitionText: string) {
    return this.replicas.localReplica(topic, integerParam(partitionText, 'partition')).view;
  }

  /** The bytes of this broker's replica from `offset` to `end_offset` (whole batches), to compare replicas. */
  @Get('partitions/:topic/:partition/replica-log')
  async replicaLog(
    @Param('topic') topic: string,
    @Param('partition') partitionText: string,
    @Query() query: Record<string, string | undefined>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { log } = this.replicas.localReplica(topic, integerParam(partitionText, 'partition'));
    const read = await log.read(integerParam(query.offset, 'offset'), {
      maxBytes: integerParam(query.max_bytes, 'max_bytes', { min: 1, max: this.config.readBytesMax }),
      maxOffsetExclusive: integerParam(query.end_offset, 'end_offset'),
      minOneBatch: true,
    });
    void reply.header('content-type', BATCHES_MEDIA_TYPE).header(NEXT_OFFSET_HEADER, String(read.nextOffset));
    return read.batches;
  }

  /**
   * A follower's fetch (replication/replica-fetch-protocol.ts has the request and the answer), when
   * replica-fetch-route.ts has not taken it before Fastify (it takes the plain ones from peers). The batches go out
   * as the leader holds them, several kept appends in one corked write, without joining them into one Buffer.
   */
  @Get('partitions/:topic/:partition/replica-fetch')
  async replicaFetch(
    @Param('topic') topic: string,
    @Param('partition') partitionText: string,
    @Query() query: Record<string, string | undefined>,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const partition = integerParam(partitionText, 'partition');
    const signal = clientGone(reply.raw);
    const answer = await this.replicas.replicaFetch(topic, partition, replicaFetchRequest(query, this.config), signal);
    reply.hijack();
    // with the headers hooks have set on the reply (request id), which a raw head would leave out
    writeBatchesAnswer(
      reply.raw,
      { ...(reply.getHeaders() as OutgoingHttpHeaders), ...answerHeaders(answer) },
      answer.batches,
    );
  }

  @Get('partitions/:topic/:partition/records')
  async read(
    @Param('topic') topic: string,
    @Param('partition') partitionText: string,
    @Query() query: Record<string, string | undefined>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const partition = integerParam(partitionText, 'partition');
    const signal = clientGoneSignal(reply.raw);
    const result = await this.replicas.read(topic, partition, integerParam(query.offset, 'offset'), {
      maxBytes: integerParam(query.max_bytes, 'max_bytes', { min: 1, max: this.config.readBytesMax }),
      waitMs: integerParam(query.wait_ms, 'wait_ms', { max: this.config.readWaitMsMax, fallback: 0 }),
      signal,
    });
    void reply
      .header('content-type', BATCHES_MEDIA_TYPE)
      .header(NEXT_OFFSET_HEADER, String(result.nextOffset))
      .header(HIGH_WATERMARK_HEADER, String(result.highWatermark))
      .header(LOG_START_OFFSET_HEADER, String(result.logStartOffset));
    return result.batches;
  }

  @Get('partitions/:topic/:partition/offsets')
  offsets(@Param('topic') topic: string, @Param('partition') partitionText: string) {
    return this.replicas.offsets(topic, integerParam(partitionText, 'partition'));
  }

  @Get('partitions/:topic/:partition/offset-for-timestamp')
  async offsetForTimestamp(
    @Param('topic') topic: string,
    @Param('partition') partitionText: string,
    @Query('timestamp') timestamp: string | undefined,
  ) {
    const partition = integerParam(partitionText, 'partition');
    return { offset: await this.replicas.offsetForTimestamp(topic, partition, integerParam(timestamp, 'timestamp')) };
  }
}
