// The group coordinator's answers (Kafka's error names, classic-answers.ts) as the codes of Kafka's protocol, and
// the client host as Kafka's group APIs show it.
import type { ClassicError } from '../group-coordinator/classic-answers.js';
import { KafkaErrorCode } from './protocol/error-codes.js';
import type { KafkaSession } from './kafka-session.js';

export type GroupErrorName = ClassicError | 'GROUP_ID_NOT_FOUND' | 'NON_EMPTY_GROUP';

export function groupErrorCode(error: GroupErrorName | null): KafkaErrorCode {
  return error === null ? KafkaErrorCode.NONE : KafkaErrorCode[error];
}

/** Kafka's form of a member's client host: the address with a leading slash (InetAddress.toString()). */
export function clientHostOf(session: KafkaSession): string {
  return `/${session.host}`;
}
