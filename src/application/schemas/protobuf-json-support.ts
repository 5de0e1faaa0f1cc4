// What the proto3 JSON mapping (protobuf-json.ts) and the well-known types' JSON forms (protobuf-well-known.ts)
// share: protobufjs's 64-bit integers, and the refusal of a value with where and why (DataConversionError, 42203).
import { protobufjs } from './schema-libraries.js';
import { DataConversionError } from './schema-errors.js';

/** The 64-bit integers protobufjs reads and writes (long.js, which protobufjs's typings only sketch). */
export interface LongValue {
  toNumber(): number;
  isZero(): boolean;
  toString(): string;
}
interface LongClass {
  fromString(text: string, unsigned?: boolean): LongValue;
  fromNumber(value: number, unsigned?: boolean): LongValue;
  isLong(value: unknown): value is LongValue;
}
const longClass = () => protobufjs().util.Long as unknown as LongClass;
/** long.js as protobufjs holds it, reached on each call (protobufjs loads on first use: schema-libraries.ts). */
export const Long: LongClass = {
  fromString: (text, unsigned) => longClass().fromString(text, unsigned),
  fromNumber: (value, unsigned) => longClass().fromNumber(value, unsigned),
  isLong: (value): value is LongValue => longClass().isLong(value),
};

export const fail = (path: string, why: string): never => {
  throw new DataConversionError(`${path}: ${why}`);
};
