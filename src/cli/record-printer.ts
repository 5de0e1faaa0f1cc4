// How the console consumer prints a record, after Kafka's DefaultMessageFormatter: optional fields in the order
// timestamp, partition, offset, headers, key, then the value, separated by `key.separator` (a tab by default).
// The timestamp is `CreateTime:<ms>` or `LogAppendTime:<ms>` per the topic's `message.timestamp.type`; headers
// are `name:value` joined by `,` (or `NO_HEADERS`); a null key, value or header value prints as `null`. With
// `print.schema.ids` (Confluent's schema console consumers), each printed key and value is followed by its schema id.

export interface ConsumedRecord {
  topic: string;
  partition: number;
  offset: number;
  timestamp: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: Array<{ name: string; value: Buffer | null }>;
  /** In a schema format: the schema ids the broker reported (null for a null field or one not in the wire format). */
  keySchemaId?: number | null;
  valueSchemaId?: number | null;
  /** In a schema format: why the key or value could not be decoded. */
  errors?: string[];
}

export interface PrintOptions {
  printTimestamp: boolean;
  printPartition: boolean;
  printOffset: boolean;
  printHeaders: boolean;
  printKey: boolean;
  printValue: boolean;
  printSchemaIds: boolean;
  keySeparator: string;
  lineSeparator: string;
  timestampType: 'CreateTime' | 'LogAppendTime';
}

export const DEFAULT_PRINT_OPTIONS: PrintOptions = {
  printTimestamp: false,
  printPartition: false,
  printOffset: false,
  printHeaders: false,
  printKey: false,
  printValue: true,
  printSchemaIds: false,
  keySeparator: '\t',
  lineSeparator: '\n',
  timestampType: 'CreateTime',
};

const NULL_LITERAL = 'null';

export function formatRecord(record: ConsumedRecord, options: PrintOptions): string {
  const fields: string[] = [];
  if (options.printTimestamp) fields.push(`${options.timestampType}:${record.timestamp}`);
  if (options.printPartition) fields.push(`Partition:${record.partition}`);
  if (options.printOffset) fields.push(`Offset:${record.offset}`);
  if (options.printHeaders) {
    fields.push(
      record.headers.length === 0
        ? 'NO_HEADERS'
        : record.headers.map((header) => `${header.name}:${text(header.value)}`).join(','),
    );
  }
  if (options.printKey) fields.push(text(record.key));
  if (options.printKey && options.printSchemaIds) fields.push(String(record.keySchemaId ?? NULL_LITERAL));
  if (options.printValue) fields.push(text(record.value));
  if (options.printValue && options.printSchemaIds) fields.push(String(record.valueSchemaId ?? NULL_LITERAL));
  return fields.join(options.keySeparator) + options.lineSeparator;
}

function text(bytes: Buffer | null): string {
  return bytes === null ? NULL_LITERAL : bytes.toString('utf8');
}
