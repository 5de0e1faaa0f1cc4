// `npm run cluster [-- --brokers 3 --port 8082 --kafka-port 9092 --registry-port 8081 --dir ./data-cluster]`:
// starts a local cluster (local-cluster.ts), prints the brokers' URLs, Kafka listeners and schema registry URLs,
// and stops everything on Ctrl-C.
import { startLocalCluster } from './local-cluster.js';

interface ClusterArgs {
  brokers?: number;
  port?: number;
  kafkaPort?: number;
  registryPort?: number;
  dir?: string;
}

function parseArgs(argv: string[]): ClusterArgs {
  const options: ClusterArgs = {};
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split('=', 2);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`${name} needs a value`);
    if (name === '--brokers') options.brokers = Number(value);
    else if (name === '--port') options.port = Number(value);
    else if (name === '--kafka-port') options.kafkaPort = Number(value);
    else if (name === '--registry-port') options.registryPort = Number(value);
    else if (name === '--dir') options.dir = value;
    else throw new Error(`unknown option ${name} (known: --brokers, --port, --kafka-port, --registry-port, --dir)`);
  }
  return options;
}

async function main(): Promise<void> {
  const cluster = await startLocalCluster({
    ...parseArgs(process.argv.slice(2)),
    onOutput: (id, line) => console.log(`[broker ${id}] ${line}`),
  });
  console.log(`Redis:   ${cluster.redisUrl} (AOF in ${cluster.dir}/redis)`);
  for (const broker of cluster.brokers) {
    console.log(
      `broker ${broker.id}: ${broker.url}, Kafka ${broker.kafka} ` +
        `(schema registry ${broker.registryUrl}, data in ${broker.dataDir})`,
    );
  }
  console.log(`cluster secret (for the internal routes): ${cluster.secret}`);
  console.log('Ctrl-C stops the cluster.');
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      cluster.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(`stopping the cluster failed: ${String(error)}`);
          process.exit(1);
        },
      );
    });
  }
}

main().catch((error: unknown) => {
  console.error(`brook cluster: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
