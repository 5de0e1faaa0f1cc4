// Replica placement as Kafka's rack-unaware assignment (AdminUtils.assignReplicasToBrokersRackUnaware): partition
// i's first replica is broker (startIndex + i) mod N, followers follow at a shift that grows every N partitions so
// that leaders and followers spread evenly. Pure; the random start and shift are parameters.
import { errors } from '../common/brook-error.js';

export interface PlacementParams {
  brokerIds: number[];
  partitions: number;
  replicationFactor: number;
  startIndex: number;
  replicaShift: number;
  /** For added partitions: the id of the first new partition. */
  firstPartitionId?: number;
}

export function assignReplicas(params: PlacementParams): number[][] {
  const brokers = [...params.brokerIds].sort((a, b) => a - b);
  const count = brokers.length;
  if (params.replicationFactor < 1) throw errors.invalidReplicationFactor('Replication factor must be larger than 0.');
  if (params.replicationFactor > count) {
    throw errors.invalidReplicationFactor(
      `Replication factor: ${params.replicationFactor} larger than available brokers: ${count}.`,
    );
  }
  const assignment: number[][] = [];
  let shift = params.replicaShift;
  let partitionId = params.firstPartitionId ?? 0;
  for (let i = 0; i < params.partitions; i++, partitionId++) {
    if (partitionId > 0 && partitionId % count === 0) shift++;
    const first = (partitionId + params.startIndex) % count;
    const replicas = [brokers[first]];
    for (let j = 0; j < params.replicationFactor - 1; j++) {
      const step = 1 + ((shift + j) % (count - 1));
      replicas.push(brokers[(first + step) % count]);
    }
    assignment.push(replicas);
  }
  return assignment;
}
