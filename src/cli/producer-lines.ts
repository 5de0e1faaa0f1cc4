// The console producer's line format (Kafka's LineMessageReader): one record per line of stdin.
// - `parse.headers=true`: the line starts with headers up to `headers.delimiter` (a tab), separated by
//   `headers.separator` (`,`), each `name` + `headers.key.separator` (`:`) + value; a header without the key
//   separator has a null value.
// - `parse.key=true`: the key is the text before the first `key.separator` (a tab) and the value the rest.
// A line missing a separator it needs is an error for that line only. `null.marker`, when set, turns a key,
// value or header value equal to it into null (a tombstone, for instance).

export interface LineFormat {
  parseKey: boolean;
  keySeparator: string;
  parseHeaders: boolean;
  headersDelimiter: string;
  headersSeparator: string;
  headersKeySeparator: string;
  nullMarker: string | undefined;
}

export const DEFAULT_LINE_FORMAT: LineFormat = {
  parseKey: false,
  keySeparator: '\t',
  parseHeaders: false,
  headersDelimiter: '\t',
  headersSeparator: ',',
  headersKeySeparator: ':',
  nullMarker: undefined,
};

export interface ParsedLine {
  headers: Array<{ name: string; value: string | null }>;
  key: string | null;
  value: string | null;
}

export type LineParseResult = { ok: true; record: ParsedLine } | { ok: false; message: string };

export function parseLine(line: string, format: LineFormat): LineParseResult {
  let rest = line;
  let headers: ParsedLine['headers'] = [];
  if (format.parseHeaders) {
    const at = rest.indexOf(format.headersDelimiter);
    if (at === -1) return missing('headers delimiter', format.headersDelimiter);
    headers = parseHeaders(rest.slice(0, at), format);
    rest = rest.slice(at + format.headersDelimiter.length);
  }
  let key: string | null = null;
  if (format.parseKey) {
    const at = rest.indexOf(format.keySeparator);
    if (at === -1) return missing('key separator', format.keySeparator);
    key = orNull(rest.slice(0, at), format);
    rest = rest.slice(at + format.keySeparator.length);
  }
  return { ok: true, record: { headers, key, value: orNull(rest, format) } };
}

function parseHeaders(text: string, format: LineFormat): ParsedLine['headers'] {
  if (text === '') return [];
  return text.split(format.headersSeparator).map((header) => {
    const at = header.indexOf(format.headersKeySeparator);
    if (at === -1) return { name: header, value: null };
    return { name: header.slice(0, at), value: orNull(header.slice(at + format.headersKeySeparator.length), format) };
  });
}

function missing(what: string, separator: string): LineParseResult {
  return { ok: false, message: `no ${what} ${JSON.stringify(separator)} found` };
}

function orNull(text: string, format: LineFormat): string | null {
  return format.nullMarker !== undefined && text === format.nullMarker ? null : text;
}
