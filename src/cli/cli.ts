// The `brook` program: its commands, its help and the mapping of every failure to an exit code. One file per
// command under commands/, registered below, among them the replication commands (`reassign-partitions`,
// `leader-election`, issue 7).
import { Command, CommanderError } from 'commander';
import { registerAclsCommand } from './commands/acls.js';
import { registerClusterCommand } from './commands/cluster.js';
import { registerConfigsCommand } from './commands/configs.js';
import { registerConsoleConsumerCommand } from './commands/console-consumer.js';
import { registerConsoleProducerCommand } from './commands/console-producer.js';
import { registerConsumerGroupsCommand } from './commands/consumer-groups.js';
import { registerLeaderElectionCommand } from './commands/leader-election.js';
import { registerReassignPartitionsCommand } from './commands/reassign-partitions.js';
import { registerSchemasCommand } from './commands/schemas.js';
import { registerStartCommand } from './commands/start.js';
import { registerTopicsCommand } from './commands/topics.js';
import { registerUsersCommand } from './commands/users.js';
import type { CliIo } from './command-context.js';
import { CliError, EXIT, EXIT_CODES_HELP } from './errors.js';

export function buildProgram(io: CliIo): Command {
  const program = new Command('brook')
    .description(
      "Brook's command-line tools: Kafka's topics, configs, console producer and consumer, consumer groups, " +
        'partition reassignment and leader election, ACLs, users and quotas, and the schema registry',
    )
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .showHelpAfterError('(add --help for usage)')
    .addHelpText(
      'after',
      `
The broker is --bootstrap-server (default http://localhost:8082, or $BROOK_URL); host:port means http://host:port.
Credentials for a broker with authentication: BROOK_API_KEY (Bearer), or BROOK_USER and BROOK_PASSWORD (Basic);
for HTTPS with a private CA, NODE_EXTRA_CA_CERTS=ca.crt.

Examples:
  brook start --port 8082 --data-dir ./data
  brook topics --create --topic test --partitions 1 --replication-factor 1
  echo hello | brook console-producer --topic test
  brook console-consumer --topic test --from-beginning --max-messages 1
  brook reassign-partitions --execute --reassignment-json-file plan.json
  brook leader-election --election-type PREFERRED --all-topic-partitions
  echo "$PASSWORD" | brook users add --users-file users --user alice --password-stdin
  brook acls --add --allow-principal User:alice --operation Read --topic test
  brook configs --entity-type users --entity-name alice --alter --add-config producer_byte_rate=1048576
  brook schemas --register --subject test-value --schema-file test.avsc

${EXIT_CODES_HELP}
`,
    );
  registerStartCommand(program, io);
  registerTopicsCommand(program, io);
  registerConfigsCommand(program, io);
  registerConsoleProducerCommand(program, io);
  registerConsoleConsumerCommand(program, io);
  registerConsumerGroupsCommand(program, io);
  registerReassignPartitionsCommand(program, io);
  registerLeaderElectionCommand(program, io);
  registerClusterCommand(program, io);
  registerUsersCommand(program, io);
  registerAclsCommand(program, io);
  registerSchemasCommand(program, io);
  return program;
}

/** Runs the CLI on `argv` (without node and script) and returns the exit code; never throws a CliError. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (error instanceof CliError) {
      io.stderr.write(`brook: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}
