// The brokers a Kafka client is told about (Metadata, DescribeCluster, FindCoordinator): every live broker's
// registration that carries a Kafka listener. Read from the coordination store at each call; while the store
// cannot be read, the last list read stands (produce and fetch go on without Redis, so must metadata).
import type { ControllerElection } from '../controller-election/controller-election.service.js';

export interface KafkaBroker {
  readonly nodeId: number;
  readonly host: string;
  readonly port: number;
  readonly rack: string | null;
}

export class BrokerDirectory {
  private lastKnown: readonly KafkaBroker[] = [];

  constructor(private readonly election: ControllerElection) {}

  async brokers(): Promise<readonly KafkaBroker[]> {
    try {
      const registrations = await this.election.liveBrokers();
      this.lastKnown = registrations.flatMap((registration) =>
        registration.kafka === undefined
          ? []
          : [
              {
                nodeId: registration.brokerId,
                host: registration.kafka.host,
                port: registration.kafka.port,
                rack: null,
              },
            ],
      );
    } catch {
      // the coordination store is unreachable: the last list read stands
    }
    return this.lastKnown;
  }

  /** The controller's id, or -1 when none is known (or the store cannot tell). */
  async controllerId(): Promise<number> {
    return (await this.election.controllerId().catch(() => null)) ?? -1;
  }
}
