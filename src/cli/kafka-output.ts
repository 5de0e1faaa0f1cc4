// What Kafka's command-line tools print, so that scripts that parse their output work on Brook's (the default
// `--output kafka`; `--output table` and `--output json` are Brook's). Each function follows the Kafka tool named in
// its comment (Kafka 4's TopicCommand, ConsumerGroupCommand, ConfigCommand, AclCommand and
// ReassignPartitionsCommand), down to the column widths of their `%-Ns` formats and the trailing spaces they leave.
// Pure: data in, text out.

/** Java's `%-Ns`: the value left-justified in at least `width` characters. */
function left(value: string, width: number): string {
  return value.padEnd(width);
}

/** Kafka's MISSING_COLUMN_VALUE. */
const MISSING = '-';

/** kafka-topics --list: one name per line. */
export function kafkaTopicList(names: readonly string[]): string {
  return names.map((name) => `${name}\n`).join('');
}

export interface KafkaTopic {
  topic_name: string;
  partitions_count: number;
  replication_factor: number;
  /** The configs whose value is not the default, by name. */
  configs: Readonly<Record<string, string | null>>;
  partitions: ReadonlyArray<{
    partition_id: number;
    leader: number | null;
    replicas: readonly number[];
    isr: readonly number[];
    /** During a reassignment, the replicas being added and removed. */
    reassignment?: { adding: readonly number[]; removing: readonly number[] } | null;
  }>;
}

/**
 * kafka-topics --describe: a summary line of tab-separated `Name: value` fields (no TopicId: Brook's API has none
 * to show, as Kafka omits a zero id), then a line per partition starting with a tab. Brook has no eligible leader
 * replicas (KIP-966): `Elr: N/A`, as Kafka prints for a cluster without them.
 */
export function kafkaTopicDescription(topic: KafkaTopic): string {
  const configs = Object.entries(topic.configs)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}=${value ?? 'null'}`)
    .join(',');
  const lines = [
    `Topic: ${topic.topic_name}\tPartitionCount: ${topic.partitions_count}\t` +
      `ReplicationFactor: ${topic.replication_factor}\tConfigs: ${configs}`,
  ];
  for (const partition of [...topic.partitions].sort((a, b) => a.partition_id - b.partition_id)) {
    const moving =
      partition.reassignment === undefined || partition.reassignment === null
        ? ''
        : `\tAdding Replicas: ${partition.reassignment.adding.join(',')}` +
          `\tRemoving Replicas: ${partition.reassignment.removing.join(',')}`;
    lines.push(
      `\tTopic: ${topic.topic_name}\tPartition: ${partition.partition_id}\t` +
        `Leader: ${partition.leader ?? 'none'}\tReplicas: ${partition.replicas.join(',')}\t` +
        `Isr: ${partition.isr.join(',')}${moving}\tElr: N/A\tLastKnownElr: N/A`,
    );
  }
  return lines.map((line) => `${line}\n`).join('');
}

/** Kafka's GroupState names for the v3 API's consumer group states. */
export const KAFKA_GROUP_STATES: Readonly<Record<string, string>> = {
  STABLE: 'Stable',
  EMPTY: 'Empty',
  PREPARING_REBALANCE: 'PreparingRebalance',
  COMPLETING_REBALANCE: 'CompletingRebalance',
  DEAD: 'Dead',
  UNKNOWN: 'Unknown',
};

export function kafkaGroupState(state: string): string {
  return KAFKA_GROUP_STATES[state] ?? 'Unknown';
}

/** kafka-consumer-groups --list: one group id per line. */
export function kafkaGroupList(groups: readonly string[]): string {
  return groups.map((group) => `${group}\n`).join('');
}

/** kafka-consumer-groups --list --state: `GROUP` and `STATE` columns, Kafka's widths. */
export function kafkaGroupStates(groups: ReadonlyArray<{ group: string; state: string }>): string {
  const groupWidth = Math.max(15, ...groups.map((g) => g.group.length)) + 10;
  const line = (group: string, state: string) => `${left(group, groupWidth)} ${left(state, 20)}\n`;
  return line('GROUP', 'STATE') + groups.map((g) => line(g.group, kafkaGroupState(g.state))).join('');
}

export interface KafkaLagRow {
  topic_name: string;
  partition_id: number;
  /** -1 when the group has committed nothing for the partition. */
  current_offset: number;
  log_end_offset: number;
  lag: number;
  consumer_id: string;
  client_id: string;
}

/**
 * kafka-consumer-groups --describe: the state note (stderr: no active members, or rebalancing), then on stdout a
 * blank line, the header and a row per partition, each `GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG
 * CONSUMER-ID HOST CLIENT-ID`, `-` for what is unknown (no committed offset; no owner; Brook knows no member's host).
 * A group with nothing to show prints only the note.
 */
export function kafkaGroupDescription(
  group: string,
  state: string,
  rows: readonly KafkaLagRow[],
): { stdout: string; stderr: string } {
  const stderr =
    state === 'EMPTY'
      ? `\nConsumer group '${group}' has no active members.\n`
      : state === 'PREPARING_REBALANCE' || state === 'COMPLETING_REBALANCE'
        ? `\nWarning: Consumer group '${group}' is rebalancing.\n`
        : '';
  if (rows.length === 0) return { stdout: '', stderr };
  const sorted = [...rows].sort((a, b) => a.topic_name.localeCompare(b.topic_name) || a.partition_id - b.partition_id);
  const cells = sorted.map((row) => {
    const committed = row.current_offset >= 0;
    return [
      group,
      row.topic_name,
      String(row.partition_id),
      committed ? String(row.current_offset) : MISSING,
      String(row.log_end_offset),
      committed ? String(row.lag) : MISSING,
      row.consumer_id === '' ? MISSING : row.consumer_id,
      MISSING,
      row.client_id === '' ? MISSING : row.client_id,
    ];
  });
  const width = (column: number) => Math.max(15, ...cells.map((cell) => cell[column].length));
  const widths = [width(0), width(1), 10, 15, 15, 15, width(6), width(7)];
  const line = (values: readonly string[]) =>
    `\n${values
      .slice(0, 8)
      .map((value, i) => left(value, widths[i]))
      .join(' ')} ${values[8]}`;
  const header = ['GROUP', 'TOPIC', 'PARTITION', 'CURRENT-OFFSET', 'LOG-END-OFFSET', 'LAG', 'CONSUMER-ID', 'HOST'];
  return { stdout: `${line([...header, 'CLIENT-ID'])}${cells.map(line).join('')}\n`, stderr };
}

/** kafka-consumer-groups --reset-offsets: `GROUP TOPIC PARTITION NEW-OFFSET` after a blank line. */
export function kafkaResetPlan(
  group: string,
  rows: ReadonlyArray<{ topic_name: string; partition_id: number; new_offset: number }>,
): string {
  if (rows.length === 0) return '\n';
  const sorted = [...rows].sort((a, b) => a.topic_name.localeCompare(b.topic_name) || a.partition_id - b.partition_id);
  const groupWidth = Math.max(15, group.length);
  const topicWidth = Math.max(15, ...sorted.map((row) => row.topic_name.length));
  const line = (values: readonly string[]) =>
    `\n${left(values[0], groupWidth)} ${left(values[1], topicWidth)} ${left(values[2], 10)} ${values[3]}`;
  return (
    line(['GROUP', 'TOPIC', 'PARTITION', 'NEW-OFFSET']) +
    sorted.map((row) => line([group, row.topic_name, String(row.partition_id), String(row.new_offset)])).join('') +
    '\n'
  );
}

export interface KafkaConfigEntry {
  name: string;
  value?: string | null;
  is_sensitive: boolean;
  synonyms: ReadonlyArray<{ name: string; value?: string | null; source: string }>;
}

/**
 * kafka-configs --describe of a topic: `Dynamic configs for topic t are:` (`All configs` with --all), then
 * `  name=value sensitive=false synonyms={SOURCE:name=value, ...}` per config (`null` for a sensitive or unset value).
 */
export function kafkaConfigDescription(topic: string, all: boolean, entries: readonly KafkaConfigEntry[]): string {
  return kafkaEntityConfigDescription(`${all ? 'All' : 'Dynamic'} configs for topic ${topic} are:`, entries);
}

/** The same lines under another title (`Dynamic configs for broker 1 are:`). */
export function kafkaEntityConfigDescription(title: string, entries: readonly KafkaConfigEntry[]): string {
  const value = (text: string | null | undefined, sensitive: boolean) => (sensitive ? 'null' : (text ?? 'null'));
  const lines = entries.map((entry) => {
    const synonyms = entry.synonyms
      .map((synonym) => `${synonym.source}:${synonym.name}=${value(synonym.value, entry.is_sensitive)}`)
      .join(', ');
    return `  ${entry.name}=${value(entry.value, entry.is_sensitive)} sensitive=${entry.is_sensitive} synonyms={${synonyms}}`;
  });
  return [title, ...lines].map((line) => `${line}\n`).join('');
}

/**
 * kafka-configs --describe --entity-type users: `Quota configs for user-principal 'alice' are
 * consumer_byte_rate=2.0, ...` (`the default user-principal` for the default), rates as Java doubles.
 */
export function kafkaQuotaDescription(entity: string, quotas: Readonly<Record<string, number | null>>): string {
  const who = entity === '<default>' ? 'the default user-principal' : `user-principal '${entity}'`;
  const rates = Object.entries(quotas)
    .filter((entry): entry is [string, number] => entry[1] !== null)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, rate]) => `${name}=${Number.isInteger(rate) ? rate.toFixed(1) : String(rate)}`)
    .join(', ');
  return `Quota configs for ${who} are ${rates}\n`;
}

export interface KafkaAcl {
  resource_type: string;
  resource_name: string;
  pattern_type: string;
  principal: string;
  host: string;
  operation: string;
  permission: string;
}

/**
 * kafka-acls: for each resource, `<verb> ACLs for resource `ResourcePattern(resourceType=TOPIC, name=t,
 * patternType=LITERAL)`: ` and its entries `(principal=User:a, host=*, operation=READ, permissionType=ALLOW)`, each
 * after a tab, then a blank line; `verb` is `Current` (list) or `Adding` (add).
 */
export function kafkaAcls(verb: 'Current' | 'Adding', acls: readonly KafkaAcl[]): string {
  const byResource = new Map<string, KafkaAcl[]>();
  for (const acl of acls) {
    const pattern =
      `ResourcePattern(resourceType=${acl.resource_type}, name=${acl.resource_name}, ` +
      `patternType=${acl.pattern_type})`;
    byResource.set(pattern, [...(byResource.get(pattern) ?? []), acl]);
  }
  return [...byResource]
    .map(([pattern, entries]) => {
      const lines = entries.map(
        (acl) =>
          `\t(principal=${acl.principal}, host=${acl.host}, operation=${acl.operation}, ` +
          `permissionType=${acl.permission})`,
      );
      return `${verb} ACLs for resource \`${pattern}\`: \n ${lines.join('\n')} \n\n`;
    })
    .join('');
}

/**
 * kafka-reassign-partitions --list: `Current partition reassignments:` and `t-0: replicas: 1,2,3. adding: 3.
 * removing: 1.` per partition (the replicas being target then removed ones, as Kafka merges them), or
 * `No partition reassignments found.`
 */
export function kafkaReassignmentList(
  rows: ReadonlyArray<{
    topic: string;
    partition: number;
    target: readonly number[];
    adding: readonly number[];
    removing: readonly number[];
  }>,
): string {
  if (rows.length === 0) return 'No partition reassignments found.\n';
  const sorted = [...rows].sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
  const lines = sorted.map((row) => {
    const replicas = [...row.target, ...row.removing.filter((broker) => !row.target.includes(broker))];
    const adding = row.adding.length === 0 ? '' : ` adding: ${row.adding.join(',')}.`;
    const removing = row.removing.length === 0 ? '' : ` removing: ${row.removing.join(',')}.`;
    return `${row.topic}-${row.partition}: replicas: ${replicas.join(',')}.${adding}${removing}`;
  });
  return `Current partition reassignments:\n${lines.join('\n')}\n`;
}

/**
 * kafka-reassign-partitions --cancel: `Successfully cancelled partition reassignment(s) for: t-0,t-1` (singular for
 * one), or that none of them was active. (Kafka then reports log-directory moves, which Brook does not have.)
 */
export function kafkaCancelled(names: readonly string[]): string {
  if (names.length === 0) return 'None of the specified partition reassignments are active.\n';
  return `Successfully cancelled partition reassignment${names.length === 1 ? '' : 's'} for: ${names.join(',')}\n`;
}
