// Helpers for the reassignment and leader-election tests: a topic's partition 0 as the v3 routes show it
// (replicas in assignment order, leader, ISR), starting a reassignment, waiting for it to complete, and whether a
// broker still has a replica's folder in its data dir.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BrokerProcess } from './broker-process.js';
import { waitUntil } from './cluster.js';
import { call, type ApiResponse } from './http.js';

export const REASSIGNMENTS = '/v3/clusters/{cluster_id}/topics/-/partitions/-/reassignment';
export const ELECTIONS = '/v3/clusters/{cluster_id}/topics/-/partitions/-/leader-election';

export interface PartitionReplicas {
  replicas: number[];
  leader: number | null;
  isr: number[];
}

export async function partitionReplicas(
  through: BrokerProcess,
  clusterId: string,
  topic: string,
  partition = 0,
): Promise<PartitionReplicas> {
  const answer = await call(
    through.url,
    'GET',
    `/v3/clusters/${clusterId}/topics/${topic}/partitions/${partition}/replicas`,
  );
  if (answer.status !== 200) throw new Error(`replicas of ${topic}-${partition}: ${answer.status} ${answer.text}`);
  const data = answer.body.data as Array<{ broker_id: number; is_leader: boolean; is_in_sync: boolean }>;
  return {
    replicas: data.map((replica) => replica.broker_id),
    leader: data.find((replica) => replica.is_leader)?.broker_id ?? null,
    isr: data
      .filter((replica) => replica.is_in_sync)
      .map((replica) => replica.broker_id)
      .sort(),
  };
}

export function reassign(
  through: BrokerProcess,
  clusterId: string,
  partitions: Array<{ topic_name: string; partition_id: number; replicas: number[] | null }>,
): Promise<ApiResponse> {
  return call(through.url, 'POST', `/v3/clusters/${clusterId}/topics/-/partitions/-/reassignment`, {
    body: { partitions },
    spec: REASSIGNMENTS,
  });
}

/** Waits until no reassignment of the topic is in progress and its partition 0 has exactly `target`. */
export async function waitForReassignment(
  through: () => BrokerProcess,
  clusterId: string,
  topic: string,
  target: number[],
  timeoutMs: number,
): Promise<PartitionReplicas> {
  return waitUntil(
    `${topic}-0 reassigned to [${target.join(',')}]`,
    async () => {
      try {
        const broker = through();
        const listed = await call(
          broker.url,
          'GET',
          `/v3/clusters/${clusterId}/topics/${topic}/partitions/-/reassignment`,
        );
        if (listed.status !== 200 || listed.body.data.length > 0) return null;
        const partition = await partitionReplicas(broker, clusterId, topic);
        const done =
          partition.replicas.join(',') === target.join(',') && partition.isr.join(',') === [...target].sort().join(',');
        return done && partition.leader !== null ? partition : null;
      } catch {
        return null;
      }
    },
    timeoutMs,
  );
}

export function hasReplicaFolder(broker: BrokerProcess, topic: string, partition = 0): boolean {
  return existsSync(join(broker.dataDir, 'logs', `${topic}-${partition}`));
}
