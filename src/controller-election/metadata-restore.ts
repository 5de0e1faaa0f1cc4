// Restoring a coordination store that lost the cluster metadata (DESIGN.md §1), pure: from the snapshots the
// brokers persisted (metadata-snapshot.ts), the topics to write back.
//
// - A topic name may appear with different topic ids (deleted and created again while a broker was away): the
//   id whose partition states carry the highest controller epoch is the newest and wins.
// - Per topic, the assignment with the most partitions wins (partitions are only ever added), with its configs.
// - Per partition, the state with the highest (leader epoch, state version) wins; the restored state gets a leader
//   epoch of max(that state's, the latest epoch in any replica's epoch checkpoint) + 1, so that anything stamped
//   before the loss, even by a leader whose newer state never reached a snapshot, is older than what follows it.
import type { PartitionState, TopicMetadata } from '../topic/cluster-metadata.js';
import type { MetadataSnapshot } from '../topic/metadata-snapshot.js';

export function mergeSnapshots(snapshots: MetadataSnapshot[], controllerEpoch: number): TopicMetadata[] {
  const byName = new Map<string, TopicMetadata[]>();
  for (const snapshot of snapshots) {
    for (const topic of snapshot.topics) {
      const entries = byName.get(topic.assignment.name) ?? [];
      entries.push(topic);
      byName.set(topic.assignment.name, entries);
    }
  }
  const merged: TopicMetadata[] = [];
  for (const entries of byName.values()) {
    const newestId = newestTopicId(entries);
    const same = entries.filter((entry) => entry.assignment.topicId === newestId);
    const widest = same.reduce((a, b) => (b.assignment.replicas.length > a.assignment.replicas.length ? b : a));
    const states: PartitionState[] = [];
    const stateVersions: number[] = [];
    widest.assignment.replicas.forEach((_, partition) => {
      let best: { state: PartitionState; version: number } | null = null;
      for (const entry of same) {
        const state = entry.states[partition];
        if (state === undefined || state === null) continue;
        const version = entry.stateVersions[partition] ?? 0;
        if (best === null || newer(state, version, best.state, best.version)) best = { state, version };
      }
      if (best === null) throw new Error(`no snapshot holds a state for ${widest.assignment.name}-${partition}`);
      const logName = `${widest.assignment.name}-${partition}`;
      const checkpointed = Math.max(-1, ...snapshots.map((snapshot) => snapshot.logEpochs?.[logName] ?? -1));
      states.push({ ...best.state, leaderEpoch: Math.max(best.state.leaderEpoch, checkpointed) + 1, controllerEpoch });
      stateVersions.push(0);
    });
    merged.push({ assignment: widest.assignment, states, stateVersions, configs: { ...widest.configs } });
  }
  return merged.sort((a, b) => (a.assignment.name < b.assignment.name ? -1 : 1));
}

function newestTopicId(entries: TopicMetadata[]): string {
  let best = entries[0];
  for (const entry of entries) if (highestEpoch(entry) > highestEpoch(best)) best = entry;
  return best.assignment.topicId;
}

function highestEpoch(topic: TopicMetadata): number {
  return Math.max(-1, ...topic.states.filter((state) => state != null).map((state) => state.controllerEpoch));
}

function newer(state: PartitionState, version: number, than: PartitionState, thanVersion: number): boolean {
  if (state.leaderEpoch !== than.leaderEpoch) return state.leaderEpoch > than.leaderEpoch;
  return version > thanVersion;
}
