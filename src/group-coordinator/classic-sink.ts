// Where the effects of Kafka's classic protocol that the coordinator's own steps cause go (classic-groups.service.ts
// attaches one): answers to waiting requests after a tick, and the end of the waits of groups no longer served here.
import type { ClassicEffects } from './classic-answers.js';
import type { ConsumerGroup } from './consumer-group.js';

export interface ClassicSink {
  apply(group: ConsumerGroup, effects: ClassicEffects): void;
  /** These groups are no longer served here (their offsets partition moved): their waiting requests end. */
  unloaded(groupIds: readonly string[]): void;
}
