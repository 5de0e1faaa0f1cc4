// What the proto3 JSON mapping (protobuf-json.ts) and the well-known types' JSON forms (protobuf-well-known.ts)
// share: protobufjs's 64-bit integers, and the refusal of a value with where and why (DataConversionError, 42203).
import protobuf from 'protobufjs';
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
export const Long = protobuf.util.Long as unknown as LongClass;

export const fail = (path: string, why: string): never => {
  throw new DataConversionError(`${path}: ${why}`);
};
