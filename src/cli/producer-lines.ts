// The console producer's line format: one record per line of stdin. With `parse.key=true` the key is the text
// before the first `key.separator` (a tab by default, as in Kafka) and the value the rest; a line without the
// separator is an error for that line only. `null.marker`, when set, turns a key or value equal to it into null
// (a tombstone, for instance).

export interface LineFormat {
  parseKey: boolean;
  keySeparator: string;
  nullMarker: string | undefined;
}

export const DEFAULT_LINE_FORMAT: LineFormat = { parseKey: false, keySeparator: '\t', nullMarker: undefined };

export interface ParsedLine {
  key: string | null;
  value: string | null;
}

export type LineParseResult = { ok: true; record: ParsedLine } | { ok: false; message: string };

export function parseLine(line: string, format: LineFormat): LineParseResult {
  if (!format.parseKey) return { ok: true, record: { key: null, value: orNull(line, format) } };
  const at = line.indexOf(format.keySeparator);
  if (at === -1) {
    return { ok: false, message: `no key separator ${JSON.stringify(format.keySeparator)} found` };
  }
  return {
    ok: true,
    record: {
      key: orNull(line.slice(0, at), format),
      value: orNull(line.slice(at + format.keySeparator.length), format),
    },
  };
}

function orNull(text: string, format: LineFormat): string | null {
  return format.nullMarker !== undefined && text === format.nullMarker ? null : text;
}
