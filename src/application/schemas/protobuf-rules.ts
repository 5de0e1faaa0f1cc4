// The rule table of Protobuf compatibility, after Confluent's (its `Difference.Type`s and the set of compatible
// ones), which follows protobuf's own evolution rules: a reader skips fields it does not know and defaults fields
// it does not find, so adding and removing optional fields, messages and enums is compatible both ways; changing
// what a field number means is not. Scalars are grouped by wire compatibility (int32, uint32, int64, uint64, bool
// and enums; sint32 and sint64; string and bytes; fixed32 and sfixed32; fixed64 and sfixed64; float; double): a
// change within a group is compatible, across groups it is not. Messages are numbered in the wire format relative
// to the schema of each record's id, so moving one is compatible; changing the package renames every type.

interface Rule {
  readonly compatible: boolean;
  /** What changed, with `%r` for the reader's schema ("new" or "old") and `%w` for the writer's. */
  readonly says: string;
}

export const PROTOBUF_RULES = {
  PACKAGE_CHANGED: {
    compatible: false,
    says: 'The package of the %r schema differs from the package of the %w schema',
  },
  MESSAGE_ADDED: { compatible: true, says: 'A message was added' },
  MESSAGE_REMOVED: { compatible: false, says: 'The %r schema is missing a message present in the %w schema' },
  MESSAGE_MOVED: { compatible: true, says: 'A message moved' },
  ENUM_ADDED: { compatible: true, says: 'An enum was added' },
  ENUM_REMOVED: { compatible: true, says: 'An enum was removed' },
  ENUM_CONST_ADDED: { compatible: true, says: 'An enum constant was added' },
  ENUM_CONST_CHANGED: { compatible: true, says: 'An enum constant was renamed' },
  ENUM_CONST_REMOVED: { compatible: true, says: 'An enum constant was removed' },
  FIELD_ADDED: { compatible: true, says: 'A field was added' },
  FIELD_REMOVED: { compatible: true, says: 'A field was removed' },
  FIELD_NAME_CHANGED: { compatible: true, says: 'A field was renamed' },
  FIELD_KIND_CHANGED: {
    compatible: false,
    says: 'The kind (scalar, message or map) of a field in the %r schema differs from its kind in the %w schema',
  },
  FIELD_SCALAR_KIND_CHANGED: {
    compatible: false,
    says: 'The scalar type of a field in the %r schema is not wire-compatible with its type in the %w schema',
  },
  FIELD_NAMED_TYPE_CHANGED: {
    compatible: false,
    says: 'The message type of a field in the %r schema differs from or cannot read its type in the %w schema',
  },
  FIELD_NUMERIC_LABEL_CHANGED: {
    compatible: false,
    says: 'A numeric field is repeated in one of the %r and %w schemas and singular in the other',
  },
  FIELD_STRING_OR_BYTES_LABEL_CHANGED: {
    compatible: true,
    says: 'A string, bytes or message field changed between singular and repeated',
  },
  REQUIRED_FIELD_ADDED: { compatible: false, says: 'The %r schema requires a field missing in the %w schema' },
  REQUIRED_FIELD_REMOVED: { compatible: false, says: 'The %r schema is missing a field the %w schema requires' },
  ONEOF_ADDED: { compatible: true, says: 'A oneof was added' },
  ONEOF_REMOVED: { compatible: true, says: 'A oneof was removed' },
  ONEOF_FIELD_ADDED: { compatible: true, says: 'A field was added to a oneof' },
  ONEOF_FIELD_REMOVED: { compatible: false, says: 'The %r schema is missing a oneof field of the %w schema' },
  MULTIPLE_FIELDS_MOVED_TO_ONEOF: {
    compatible: false,
    says: 'Several fields of the %w schema are in one oneof of the %r schema',
  },
  FIELD_MOVED_TO_EXISTING_ONEOF: {
    compatible: false,
    says: 'A field of the %w schema moved into a oneof of the %r schema that already had fields',
  },
} as const satisfies Record<string, Rule>;

export type ProtobufChange = keyof typeof PROTOBUF_RULES;

/** Confluent-style message: `{errorType:"...", description:"... at path '#/...'"}`. */
export function describeProtobufChange(change: ProtobufChange, path: string, reader: string, writer: string): string {
  const says = PROTOBUF_RULES[change].says.replace('%r', reader).replace('%w', writer);
  return `{errorType:"${change}", description:"${says} (path '${path}')"}`;
}
