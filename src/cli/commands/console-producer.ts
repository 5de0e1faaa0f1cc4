// `brook console-producer`: kafka-console-producer.sh. Reads stdin a line per record and produces them in
// batches through `records:batch` (v3). Failed records are reported on stderr by line number and make the exit
// code 1; the rest are still produced. On a terminal stderr, shows how many records were sent so far. With a
// schema (`--value-schema-file`, `--key-schema-file`, `--format avro|jsonschema|protobuf`) each value (and key) is a
// JSON document: the schema files are registered first under <topic>-value and <topic>-key and the records sent
// with their ids, stored in Confluent's wire format; --format without a file uses the subject's latest schema.
import type { Command } from 'commander';
import { Option } from 'commander';
import { unwrap, type Connection } from '../client.js';
import { addCommonOptions, connectFrom, withExamples, type CliIo, type CommonOptions } from '../command-context.js';
import { BrokerError, CliError, EXIT, InterruptedError, UsageError } from '../errors.js';
import { batchLines, type BatchLimits, type NumberedLine } from '../line-batcher.js';
import { booleanProperty, collect, integerAtLeast, parseProperties } from '../options.js';
import { parseLine, DEFAULT_LINE_FORMAT, type LineFormat } from '../producer-lines.js';
import {
  REGISTRY_SCHEMA_TYPE,
  SCHEMA_FORMATS,
  schemaField,
  topicSubject,
  type FieldSchema,
  type SchemaFormat,
} from '../schema-lines.js';
import { readSchemaFile } from './schemas.js';

/** The broker's default `BROOK_PRODUCE_BATCH_ENTRIES_MAX`; larger batches would be refused. */
export const BATCH_ENTRIES_MAX = 10_000;
const BATCH_ENTRIES_DEFAULT = 500;
/** Bytes of line text in one request, well below the broker's request limit. */
const BATCH_BYTES_MAX = 4 * 1024 * 1024;
const LINGER_MS_DEFAULT = 5;
const PROGRESS_INTERVAL_MS = 250;

const PROPERTIES = [
  'parse.key',
  'key.separator',
  'parse.headers',
  'headers.delimiter',
  'headers.separator',
  'headers.key.separator',
  'null.marker',
] as const;

interface ProducerOptions extends CommonOptions {
  topic: string;
  brokerList?: string;
  property?: string[];
  batchSize: number;
  lingerMs: number;
  requestRequiredAcks: string;
  valueSchemaFile?: string;
  keySchemaFile?: string;
  format?: SchemaFormat;
}

/** The schemas lines are sent with: none (strings, as Kafka's console producer), or per key and value. */
interface LineSchemas {
  key: FieldSchema | null;
  value: FieldSchema | null;
}

export function registerConsoleProducerCommand(program: Command, io: CliIo): void {
  const command = program
    .command('console-producer')
    .description('produce stdin to a topic, a line per record (kafka-console-producer)')
    .requiredOption('--topic <name>', 'the topic to produce to')
    .option('--broker-list <servers>', 'old name of --bootstrap-server')
    .option('--property <name=value>', `line format: ${PROPERTIES.join(', ')} (repeatable)`, collect)
    .option('--batch-size <records>', 'records per request', integerAtLeast(1), BATCH_ENTRIES_DEFAULT)
    .option(
      '--linger-ms <ms>',
      'how long a lone line waits for others to share its request',
      integerAtLeast(0),
      LINGER_MS_DEFAULT,
    )
    .addOption(
      new Option('--request-required-acks <acks>', 'acknowledgement: all (-1), 1 or 0')
        .choices(['all', '-1', '1', '0'])
        .default('all'),
    )
    .option('--value-schema-file <file>', 'register this schema under <topic>-value and send each value (JSON) with it')
    .option('--key-schema-file <file>', 'with parse.key=true: register this schema under <topic>-key for the keys')
    .addOption(
      new Option('--format <format>', "the schema files' type; alone: the subject's latest schema").choices([
        ...SCHEMA_FORMATS,
      ]),
    );
  addCommonOptions(command, { output: false });
  withExamples(command, [
    'brook console-producer --topic test                 # then type lines; Ctrl-D ends',
    "printf 'test\\nhello boy\\n' | brook console-producer --topic test",
    "printf 'k1:v1\\n' | brook console-producer --topic test --property parse.key=true --property key.separator=:",
    "printf 'trace:abc\\tk1\\tv1\\n' | brook console-producer --topic test --property parse.headers=true --property parse.key=true",
    'brook console-producer --broker-list localhost:8082 --topic test < records.txt',
    `echo '{"id": 1}' | brook console-producer --topic orders --value-schema-file order.avsc --format avro`,
  ]);
  command.action(async (options: ProducerOptions) => {
    if (options.batchSize > BATCH_ENTRIES_MAX) throw new UsageError(`--batch-size is at most ${BATCH_ENTRIES_MAX}`);
    const format = lineFormat(options.property ?? []);
    if (options.brokerList !== undefined) {
      if (command.getOptionValueSource('bootstrapServer') === 'cli') {
        throw new UsageError('give --bootstrap-server or --broker-list, not both');
      }
      options.bootstrapServer = options.brokerList;
    }
    // In-flight batches are not aborted by Ctrl-C: reading stops and what was read is still sent.
    const connection = await connectFrom(options, undefined);
    const limits: BatchLimits = {
      entries_max: options.batchSize,
      bytes_max: BATCH_BYTES_MAX,
      linger_ms: options.lingerMs,
    };
    const schemas = await lineSchemas(connection, options, format);
    const producer = new LineProducer(
      connection,
      options.topic,
      format,
      schemas,
      acks(options.requestRequiredAcks),
      io,
    );
    try {
      await batchLines(io.stdin, limits, (batch) => producer.send(batch), io.signal);
    } finally {
      producer.finishProgress();
    }
    if (producer.failed > 0) {
      throw new CliError(
        `${producer.failed} of ${producer.failed + producer.produced} records failed`,
        EXIT.brokerError,
      );
    }
    if (io.signal.aborted) throw new InterruptedError();
  });
}

export function lineFormat(properties: readonly string[]): LineFormat {
  const parsed = parseProperties(properties, PROPERTIES);
  return {
    parseKey: booleanProperty(parsed, 'parse.key', DEFAULT_LINE_FORMAT.parseKey),
    keySeparator: parsed.get('key.separator') ?? DEFAULT_LINE_FORMAT.keySeparator,
    parseHeaders: booleanProperty(parsed, 'parse.headers', DEFAULT_LINE_FORMAT.parseHeaders),
    headersDelimiter: parsed.get('headers.delimiter') ?? DEFAULT_LINE_FORMAT.headersDelimiter,
    headersSeparator: parsed.get('headers.separator') ?? DEFAULT_LINE_FORMAT.headersSeparator,
    headersKeySeparator: parsed.get('headers.key.separator') ?? DEFAULT_LINE_FORMAT.headersKeySeparator,
    nullMarker: parsed.get('null.marker') ?? DEFAULT_LINE_FORMAT.nullMarker,
  };
}

/** Registers the schema files (the answer is the id of an identical schema already there) and names the schemas. */
async function lineSchemas(connection: Connection, options: ProducerOptions, format: LineFormat): Promise<LineSchemas> {
  if (options.keySchemaFile !== undefined && !format.parseKey) {
    throw new UsageError('--key-schema-file needs --property parse.key=true');
  }
  const schemaFormat = options.format ?? ((options.valueSchemaFile ?? options.keySchemaFile) ? 'avro' : undefined);
  if (schemaFormat === undefined) return { key: null, value: null };
  const schemaFor = async (file: string | undefined, what: 'key' | 'value'): Promise<FieldSchema> => {
    const subject = topicSubject(options.topic, what);
    if (file === undefined) return { subject };
    const schema = await readSchemaFile(file, `--${what}-schema-file`);
    const schemaType = REGISTRY_SCHEMA_TYPE[schemaFormat];
    const registered = unwrap(
      await connection.api.POST('/subjects/{subject}/versions', {
        params: { path: { subject } },
        body: { schema, ...(schemaType === 'AVRO' ? {} : { schemaType }) },
      }),
    );
    return { schemaId: registered.id };
  };
  return {
    key: format.parseKey && options.keySchemaFile !== undefined ? await schemaFor(options.keySchemaFile, 'key') : null,
    value: await schemaFor(options.valueSchemaFile, 'value'),
  };
}

function base64Header(header: { name: string; value: string | null }): { name: string; value: string | null } {
  return { name: header.name, value: header.value === null ? null : Buffer.from(header.value).toString('base64') };
}

function acks(value: string): '0' | '1' | 'all' {
  return value === '-1' || value === 'all' ? 'all' : value === '0' ? '0' : '1';
}

class LineProducer {
  produced = 0;
  failed = 0;
  private progressShownAt = 0;
  private readonly showProgress: boolean;

  constructor(
    private readonly connection: Connection,
    private readonly topic: string,
    private readonly format: LineFormat,
    private readonly schemas: LineSchemas,
    private readonly acks: '0' | '1' | 'all',
    private readonly io: CliIo,
  ) {
    this.showProgress = io.stderr.isTTY === true && io.stdin.isTTY !== true;
  }

  async send(batch: NumberedLine[]): Promise<void> {
    const entries = [];
    for (const line of batch) {
      const parsed = parseLine(line.text, this.format);
      if (!parsed.ok) {
        this.fail(line.number, parsed.message);
        continue;
      }
      const key = this.field(parsed.record.key, this.schemas.key, 'key');
      const value = this.field(parsed.record.value, this.schemas.value, 'value');
      if (!key.ok) {
        this.fail(line.number, key.message);
        continue;
      }
      if (!value.ok) {
        this.fail(line.number, value.message);
        continue;
      }
      entries.push({
        id: String(line.number),
        ...(parsed.record.headers.length === 0 ? {} : { headers: parsed.record.headers.map(base64Header) }),
        ...(key.field === null ? {} : { key: key.field }),
        ...(value.field === null ? {} : { value: value.field }),
      });
    }
    if (entries.length === 0) return;
    const { api, clusterId } = this.connection;
    const result = unwrap(
      await api.POST('/v3/clusters/{cluster_id}/topics/{topic_name}/records:batch', {
        params: { path: { cluster_id: clusterId, topic_name: this.topic }, query: { acks: this.acks } },
        body: { entries },
      }),
    );
    this.produced += result.successes.length;
    for (const failure of [...result.failures].sort((a, b) => Number(a.id) - Number(b.id))) {
      this.fail(Number(failure.id), `${failure.message} (error ${failure.error_code})`);
    }
    if (result.successes.length + result.failures.length !== entries.length) {
      throw new BrokerError(
        `the broker reported on ${result.successes.length + result.failures.length} of ${entries.length} records`,
        500,
        undefined,
      );
    }
    this.progress();
  }

  /** A key or value: a string, or a JSON document sent with its schema; null (absent) stays absent. */
  private field(
    text: string | null,
    schema: FieldSchema | null,
    what: 'key' | 'value',
  ): { ok: true; field: object | null } | { ok: false; message: string } {
    if (text === null) return { ok: true, field: null };
    if (schema === null) return { ok: true, field: { type: 'STRING' as const, data: text } };
    return schemaField(text, schema, what);
  }

  finishProgress(): void {
    if (this.showProgress && this.progressShownAt > 0) this.io.stderr.write('\r\x1b[K');
  }

  private fail(lineNumber: number, message: string): void {
    this.failed++;
    this.finishProgress();
    this.io.stderr.write(`brook: line ${lineNumber} not produced: ${message}\n`);
  }

  private progress(): void {
    if (!this.showProgress) return;
    const now = Date.now();
    if (now - this.progressShownAt < PROGRESS_INTERVAL_MS) return;
    this.progressShownAt = now;
    const failed = this.failed > 0 ? `, ${this.failed} failed` : '';
    this.io.stderr.write(`\r\x1b[Kproduced ${this.produced} records to ${this.topic}${failed}`);
  }
}
