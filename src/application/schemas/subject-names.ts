// Confluent's subject name strategies: the subject a record's key or value schema is registered under.
//   TOPIC_NAME         <topic>-key / <topic>-value (the default)
//   RECORD_NAME        the schema's record name (an Avro record's full name, a JSON Schema's title, a Protobuf
//                      message's full name; schemaRecordName in record-codec.ts)
//   TOPIC_RECORD_NAME  <topic>-<record name>
export const SUBJECT_NAME_STRATEGIES = ['TOPIC_NAME', 'RECORD_NAME', 'TOPIC_RECORD_NAME'] as const;
export type SubjectNameStrategy = (typeof SUBJECT_NAME_STRATEGIES)[number];

/** The subject, or undefined when the strategy needs a record name and there is none. */
export function subjectName(
  strategy: SubjectNameStrategy,
  topic: string,
  isKey: boolean,
  recordName: string | undefined,
): string | undefined {
  if (strategy === 'TOPIC_NAME') return `${topic}-${isKey ? 'key' : 'value'}`;
  if (recordName === undefined) return undefined;
  return strategy === 'RECORD_NAME' ? recordName : `${topic}-${recordName}`;
}
