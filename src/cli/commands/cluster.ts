// `brook cluster`: a local cluster on this machine for trying Brook out — a redis-server with AOF and N brokers
// on consecutive HTTP and Kafka ports with a generated cluster secret (src/local-cluster), in the foreground until Ctrl-C.
import type { Command } from 'commander';
import { fileURLToPath } from 'node:url';
import type { CliIo } from '../command-context.js';
import { withExamples } from '../command-context.js';
import { CliError } from '../errors.js';
import { runInForeground } from './start.js';

const LOCAL_CLUSTER_MAIN = fileURLToPath(new URL('../../local-cluster/main.js', import.meta.url));

export function registerClusterCommand(program: Command, io: CliIo): void {
  const command = program
    .command('cluster')
    .description('start a local cluster: a redis-server and N brokers on this machine (needs redis-server)')
    .helpOption('--help', 'show this help')
    .option('--brokers <n>', 'how many brokers (1 to 9)', '3')
    .option('--port <port>', "the first broker's port; the others follow", '8082')
    .option('--kafka-port <port>', "the first broker's Kafka listener port; the others follow", '9092')
    .option('--registry-port <port>', "the first broker's schema registry port; the others count down", '8081')
    .option('--dir <dir>', "where Redis's AOF and the brokers' data go", './data-cluster');
  withExamples(command, [
    'brook cluster --brokers 3',
    'brook cluster --brokers 5 --port 8092 --kafka-port 19092 --dir /tmp/brook-cluster',
  ]);
  command.action(
    async (options: { brokers: string; port: string; kafkaPort: string; registryPort: string; dir: string }) => {
      const args = [
        ...['--brokers', options.brokers, '--port', options.port],
        ...['--kafka-port', options.kafkaPort, '--registry-port', options.registryPort, '--dir', options.dir],
      ];
      const code = await runInForeground(LOCAL_CLUSTER_MAIN, args, io);
      if (code !== 0) throw new CliError(`the local cluster exited with code ${code}`, code);
    },
  );
}
