// The broker's start-up, imported by main.ts once glibc's arena bound is set (see there).
import 'reflect-metadata';
import { DATA_DIR_MODE } from './common/file-modes.js';
import { Logger, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdirSync } from 'node:fs';
import { AppModule } from './app.module.js';
import { announce } from './common/announce.js';
import { DataDirLock } from './common/data-dir-lock.js';
import { turnOffPretenuring } from './common/allocation-site-pretenuring.js';
import { systemClock } from './common/clock.js';
import { launchHeapGrowingPercent, processIdleMemoryReducer } from './common/idle-memory-reducer.js';
import { processOldGenerationBudget } from './common/old-generation-budget.js';
import { JsonLogger } from './common/json-logger.js';
import { ConfigError, loadBrokerConfig } from './config/broker-config.js';
import { ControlledShutdown } from './controller-election/controlled-shutdown.service.js';
import { ControllerElection } from './controller-election/controller-election.service.js';
import { httpAdapterOptions, installRequestPipeline } from './http/request-pipeline.js';
import { requestContextNeeded } from './http/request-id.js';
import { installReplicaFetchRoute } from './internal/replica-fetch-route.js';
import { installV2ProduceRoute } from './http/v2/v2-produce-route.js';
import { rewriteConsoleUrl } from './console/console-url.js';
import { KafkaListener } from './kafka/kafka-listener.service.js';
import { createSecondListener } from './http/second-listener.js';
import { isSchemaRegistryPath, registerRegistryMediaType } from './schema-registry/registry-http.js';
import { useWebSocketEdge } from './ws/ws.module.js';

const LOG_LEVELS = {
  silent: false,
  fatal: ['fatal'],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  trace: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
} as const satisfies Record<string, false | LogLevel[]>;

export function flagsToEnv(argv: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument '${arg}'`);
    const [name, inline] = arg.slice(2).split('=', 2);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new ConfigError(`flag --${name} needs a value`);
    env[`BROOK_${name.toUpperCase().replace(/[-.]/g, '_')}`] = value;
  }
  return env;
}

async function main(): Promise<void> {
  // a request's objects are born young even right after an idle stretch, so its Buffers die in a scavenge (see there)
  turnOffPretenuring();
  const config = loadBrokerConfig({ ...process.env, ...flagsToEnv(process.argv.slice(2)) });
  mkdirSync(config.dataDir, { recursive: true, mode: DATA_DIR_MODE });
  // one process per data dir, a paused one included; it also lets a restart replace its own registration at once
  DataDirLock.acquire(config.dataDir);
  const adapter = new FastifyAdapter({
    ...httpAdapterOptions(config),
    rewriteUrl: (request: { url?: string }) => rewriteConsoleUrl(request.url ?? '/'),
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    logger:
      config.logFormat === 'json'
        ? new JsonLogger({ json: true, logLevels: LOG_LEVELS[config.logLevel] || [] })
        : LOG_LEVELS[config.logLevel],
    bodyParser: false,
    // Peers keep connections alive and keep using them; without this a stopping broker waits on them forever.
    // By the time connections are destroyed, the replica manager has let parked acks=all requests finish.
    forceCloseConnections: true,
  });
  installRequestPipeline(app, config);
  // followers' plain fetches and plain v2 binary produces answered before Fastify's pipeline, which answers
  // everything else (see there)
  installReplicaFetchRoute(app, config, requestContextNeeded(config));
  installV2ProduceRoute(app, config, requestContextNeeded(config));
  const registry = config.schemaRegistry;
  if (registry.enabled) registerRegistryMediaType(app.getHttpAdapter().getInstance());
  const registryListener = registry.enabled ? createSecondListener(app, config, isSchemaRegistryPath) : null;
  useWebSocketEdge(app, config);
  // Not app.enableShutdownHooks(): Nest re-raises the signal after closing, so a clean stop would end "killed by
  // SIGTERM" instead of exit code 0. app.close() runs the same shutdown hooks (flush and close the logs), after a
  // controlled shutdown has moved this broker's partition leadership to other replicas (cluster mode).
  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      if (closing) return;
      closing = true;
      void app
        .get(ControlledShutdown)
        .run()
        .then(() => app.close())
        .then(
          () => process.exit(0),
          (error: unknown) => {
            console.error(`brook: shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
            process.exit(1);
          },
        );
    });
  }
  // A stale process whose broker id another process has registered exits at once, without a controlled shutdown
  // (that would move the partitions of the id the other process now holds). Its logs recover at the next start.
  app.get(ControllerElection).onIdTaken((message) => {
    console.error(`brook: ${message}`);
    process.exit(1);
  });
  await app.listen(config.port, config.host);
  // room above the live old generation, so that produce load's ArrayBuffers do not keep V8 marking (see there)
  const launchGrowingPercent = launchHeapGrowingPercent(process.execArgv, process.env.NODE_OPTIONS);
  const budget = processOldGenerationBudget(launchGrowingPercent);
  // start-up counts as activity: its memory goes back once the broker has been idle (see idle-memory-reducer.ts)
  const memoryLogger = new Logger('Memory');
  processIdleMemoryReducer(
    systemClock,
    config.idleMemoryReduceAfterMs,
    (reduction) =>
      memoryLogger.log(
        `idle${reduction.followUp ? ' (follow-up)' : ''}: memory given back in ${reduction.durationMs.toFixed(0)} ms` +
          `${reduction.fullCollection ? ' (with a full collection)' : ''}, ` +
          `resident ${(reduction.rssBeforeBytes / 1e6).toFixed(0)} -> ${(reduction.rssAfterBytes / 1e6).toFixed(0)} MB, ` +
          `young generation ${(reduction.youngGenerationAfterBytes / 1e6).toFixed(1)} MB`,
      ),
    // after its full collection, the budget's percent again (the launch one when there is no budget)
    () => budget?.growingPercent ?? launchGrowingPercent,
  )?.start();
  await registryListener?.listen(registry.port, registry.host).catch((error: Error) => {
    throw new ConfigError(
      `the schema registry cannot listen on ${registry.host}:${registry.port} (BROOK_SCHEMA_REGISTRY_PORT): ` +
        `${error.message}; give it a free port, or BROOK_SCHEMA_REGISTRY_ENABLED=false`,
    );
  });
  announce(
    config.logFormat,
    'log',
    `brook broker ${config.brokerId} listening on ${config.advertisedUrl} (data in ${config.dataDir})`,
  );
  if (config.kafka.enabled) {
    await app.get(KafkaListener).listen();
    const { advertisedHost, advertisedPort, host, port } = config.kafka;
    announce(
      config.logFormat,
      'log',
      `kafka listener on ${host}:${port}, advertised as ${advertisedHost}:${advertisedPort}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(`brook: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
