// The words of the `error` frames that refuse a malformed client frame, in one place: the produce frame's parser
// (ws-protocol.ts) and the control frames' DTO rules (frame-rules.ts) both say a field's problem with these, so a
// field is refused in the same words whichever checks it. `path` names the field as the client wrote it
// (`assign[2].partition`).
import type { ReadFormat } from '../application/record-format.js';
import { SCHEMA_READ_FORMATS } from '../application/schemas/schema-fields.js';

/** The formats of a produce frame's keys and values. */
export type ProduceFormat = 'string' | 'json' | 'binary';
export const PRODUCE_FORMATS: readonly ProduceFormat[] = ['string', 'json', 'binary'];
/** The formats a subscription reads in: those, and the schema formats (decoded with the registry's schemas). */
export const READ_FORMATS: readonly ReadFormat[] = [...PRODUCE_FORMATS, ...SCHEMA_READ_FORMATS];

/** A client's value as JSON, for a message; a value nested too deeply for JSON.stringify is described instead. */
export function shown(value: unknown): string {
  try {
    return String(JSON.stringify(value));
  } catch {
    return 'a value nested too deeply to show';
  }
}

export const wording = {
  integer: (path: string, min: number, max: number, value: unknown) =>
    `${path} must be an integer from ${min} to ${max}, got ${shown(value)}.`,
  nonEmptyString: (path: string) => `${path} must be a non-empty string.`,
  array: (path: string, min: number, max: number) => `${path} must be an array of ${min} to ${max} items.`,
  object: (path: string) => `${path} must be a JSON object.`,
  format: (value: unknown, formats: readonly string[] = READ_FORMATS) =>
    `format must be one of ${formats.join(', ')}, got ${shown(value)}.`,
};
