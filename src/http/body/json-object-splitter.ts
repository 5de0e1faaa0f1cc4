// Splits a byte stream of concatenated JSON objects (`{...}{...}` or newline separated) into the text of each
// object, for streaming produce. Tracks nesting depth outside strings, honouring escapes; bounds each object.

export class JsonObjectSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(private readonly objectBytesMax: number) {}

  /** Returns the complete objects that `chunk` finishes. */
  push(chunk: Buffer): string[] {
    const objects: string[] = [];
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (this.depth === 0 && !this.inString) {
        if (byte === 0x7b) {
          this.depth = 1;
          start = i;
        } else if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09 && byte !== 0x2c) {
          throw new Error(`unexpected byte '${String.fromCharCode(byte)}' between records`);
        }
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === 0x5c) this.escaped = true;
        else if (byte === 0x22) this.inString = false;
      } else if (byte === 0x22) this.inString = true;
      else if (byte === 0x7b || byte === 0x5b) this.depth++;
      else if (byte === 0x7d || byte === 0x5d) {
        this.depth--;
        if (this.depth === 0) {
          this.append(chunk.subarray(start, i + 1));
          objects.push(Buffer.concat(this.pending).toString('utf8'));
          this.pending = [];
          this.pendingBytes = 0;
        }
      }
    }
    if (this.depth > 0) this.append(chunk.subarray(this.pendingBytes === 0 ? start : 0));
    return objects;
  }

  end(): void {
    if (this.depth > 0 || this.inString) throw new Error('the stream ended inside a record');
  }

  private append(part: Buffer): void {
    this.pendingBytes += part.length;
    if (this.pendingBytes > this.objectBytesMax)
      throw new Error(`a record is larger than ${this.objectBytesMax} bytes`);
    this.pending.push(part);
  }
}
