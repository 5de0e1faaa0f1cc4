// What the LZ4 and zstd frame formats share: the skippable frame (a magic number 0x184D2A50 to 0x184D2A5F, a 4-byte
// little-endian length, that many bytes of user data, nothing to decompress), and the bounds check of a frame walk.

const SKIPPABLE_MAGIC_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;

export type NeedBytes = (data: Buffer, position: number, bytes: number) => void;

/** A bounds check that names the format in its error. */
export function needBytes(format: string): NeedBytes {
  return (data, position, bytes) => {
    if (data.length - position < bytes) throw new Error(`${format} frame runs past the end`);
  };
}

/** Where the skippable frame at `position` ends, or null when the frame there is not a skippable one. */
export function skippableFrameEnd(data: Buffer, position: number, need: NeedBytes): number | null {
  need(data, position, 4);
  if ((data.readUInt32LE(position) & SKIPPABLE_MAGIC_MASK) >>> 0 !== SKIPPABLE_MAGIC) return null;
  need(data, position, 8);
  return position + 8 + data.readUInt32LE(position + 4);
}
