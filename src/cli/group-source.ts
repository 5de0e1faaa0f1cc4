// The console consumer's --group source: a v2 consumer instance. Wired once the consumer-group routes are in
// openapi.yaml (they are being added on main); until then --group is refused with a clear message.
import type { Connection } from './client.js';
import { UsageError } from './errors.js';
import type { RecordSource } from './record-source.js';

export async function openGroupSource(
  _connection: Connection,
  _group: string,
  _topic: string,
  _fromBeginning: boolean,
): Promise<RecordSource> {
  throw new UsageError('--group is not available yet: this broker build has no consumer groups');
}
