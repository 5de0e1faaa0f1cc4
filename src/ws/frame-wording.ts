// The words of the `error` frames that refuse a malformed client frame, in one place: the produce frame's parser
// (ws-protocol.ts) and the control frames' DTO rules (frame-rules.ts) both say a field's problem with these, so a
// field is refused in the same words whichever checks it. `path` names the field as the client wrote it
// (`assign[2].partition`).
import type { ReadFormat } from '../application/record-format.js';

export const READ_FORMATS: readonly ReadFormat[] = ['string', 'json', 'binary'];

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
  format: (value: unknown) => `format must be one of ${READ_FORMATS.join(', ')}, got ${shown(value)}.`,
};
