// Request bodies Fastify leaves unread: it parses no GET body, but Confluent's committed-offsets query
// (GET /consumers/{g}/instances/{i}/offsets) sends its partitions in one. Read here from the raw stream, bounded.
import type { FastifyRequest } from 'fastify';
import { errors } from '../../common/brook-error.js';

/** Bound on an unparsed (GET) body. */
export const UNPARSED_BODY_BYTES_MAX = 1024 * 1024;

/** The raw bytes of a body Fastify did not parse, or null when there are none; 413 past the bound. */
export async function readUnparsedBody(request: FastifyRequest): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > UNPARSED_BODY_BYTES_MAX) {
      throw errors.recordTooLarge(`The request body is larger than ${UNPARSED_BODY_BYTES_MAX} bytes.`);
    }
    chunks.push(chunk);
  }
  return size === 0 ? null : Buffer.concat(chunks);
}
