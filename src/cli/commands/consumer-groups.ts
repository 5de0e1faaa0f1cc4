// `brook consumer-groups`: kafka-consumer-groups.sh. Wired to the v3 consumer-group routes once they are in
// openapi.yaml (being added on main).
import type { Command } from 'commander';
import type { CliIo } from '../command-context.js';

export function registerConsumerGroupsCommand(_program: Command, _io: CliIo): void {}
