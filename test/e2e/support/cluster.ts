// A cluster for end-to-end tests: a real redis-server (no persistence) and N broker processes with ids 1..N, a
// generated cluster secret and short session timings, plus helpers to ask brokers about their cluster role.
import { randomBytes } from 'node:crypto';
import { RedisServerProcess } from '../../../src/local-cluster/redis-server-process.js';
import { type BrokerOptions, BrokerProcess } from './broker-process.js';
import { type ApiResponse, call } from './http.js';

export const SESSION_TIMEOUT_MS = 3_000;
export const HEARTBEAT_INTERVAL_MS = 500;
export const SECRET_HEADER = 'x-brook-cluster-secret';

export interface BrokerStatus {
  broker_id: number;
  broker_epoch: number;
  is_controller: boolean;
  controller_epoch: number;
  highest_controller_epoch_seen: number;
  topics: number;
}

export class TestCluster {
  private constructor(
    readonly redis: RedisServerProcess,
    readonly brokers: BrokerProcess[],
    readonly secret: string,
    private readonly extraEnv: Record<string, string>,
    private readonly options: Omit<BrokerOptions, 'env'>,
  ) {}

  /**
   * Starts redis-server and `brokerCount` brokers; `extraEnv` is added to every broker's environment, `options`
   * (such as `https` for brokers with TLS) to every broker's.
   */
  static async start(
    brokerCount: number,
    extraEnv: Record<string, string> = {},
    options: Omit<BrokerOptions, 'env'> = {},
  ): Promise<TestCluster> {
    const redis = await RedisServerProcess.start();
    const secret = randomBytes(24).toString('hex');
    const cluster = new TestCluster(redis, [], secret, extraEnv, options);
    try {
      for (let id = 1; id <= brokerCount; id++) cluster.brokers.push(await cluster.startBroker(id));
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  env(brokerId: number): Record<string, string> {
    return {
      BROOK_REDIS_URL: this.redis.url,
      BROOK_CLUSTER_SECRET: this.secret,
      BROOK_BROKER_ID: String(brokerId),
      BROOK_BROKER_SESSION_TIMEOUT_MS: String(SESSION_TIMEOUT_MS),
      BROOK_BROKER_HEARTBEAT_INTERVAL_MS: String(HEARTBEAT_INTERVAL_MS),
      ...this.extraEnv,
    };
  }

  startBroker(brokerId: number): Promise<BrokerProcess> {
    return BrokerProcess.start({ ...this.options, env: this.env(brokerId) });
  }

  broker(brokerId: number): BrokerProcess {
    const found = this.brokers.find((_, index) => index + 1 === brokerId);
    if (found === undefined) throw new Error(`no broker ${brokerId}`);
    return found;
  }

  async status(broker: BrokerProcess): Promise<BrokerStatus | null> {
    try {
      const response = await call<BrokerStatus>(broker.url, 'GET', '/internal/v1/status', {
        headers: { [SECRET_HEADER]: this.secret },
        timeoutMs: 1_000,
      });
      return response.status === 200 ? response.body : null;
    } catch {
      return null;
    }
  }

  /** The statuses of the brokers that answer and claim to be controller. */
  async controllers(brokers: BrokerProcess[] = this.brokers): Promise<BrokerStatus[]> {
    const statuses = await Promise.all(brokers.map((broker) => this.status(broker)));
    return statuses.filter((status): status is BrokerStatus => status !== null && status.is_controller);
  }

  async stop(): Promise<void> {
    await Promise.all(this.brokers.map((broker) => broker.stop()));
    await this.redis.stop();
  }
}

export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs: number,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  while (true) {
    const value = await probe();
    if (value !== null && value !== undefined && value !== false) return value;
    if (performance.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * POST a request, retrying while the answer is 503 (a controller still loading the cluster state, or none elected
 * yet), as a client of the REST Proxy should; returns the first other answer.
 */
export async function postRetrying503(
  url: string,
  path: string,
  body: unknown,
  timeoutMs = 15_000,
): Promise<ApiResponse> {
  const deadline = performance.now() + timeoutMs;
  while (true) {
    const answer = await call(url, 'POST', path, { body });
    if (answer.status !== 503 || performance.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
