// Topic configs typed in a text area, one `name=value` a line (blank lines ignored), as the create form takes them.
export interface ConfigEntry {
  name: string;
  value: string;
}

export function parseConfigLines(text: string): { configs: ConfigEntry[]; error: string | null } {
  const configs: ConfigEntry[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    const equals = line.indexOf('=');
    if (equals <= 0) return { configs: [], error: `line ${i + 1}: expected name=value, got "${line}"` };
    configs.push({ name: line.slice(0, equals).trim(), value: line.slice(equals + 1).trim() });
  }
  return { configs, error: null };
}
