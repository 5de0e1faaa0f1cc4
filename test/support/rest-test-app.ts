// Controller specs' application: Nest's testing module with the controllers under test and in-memory fakes for the
// services behind them, on the Fastify adapter with the REST edge's own body parser and error filter, so that the
// ValidationPipe's answers are exactly what a client of the broker gets. Requests go through supertest against the
// application's Fastify server.
import type { Provider, Type } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { expect } from 'vitest';
import { ControllerElection } from '../../src/controller-election/controller-election.service.js';
import { registerJsonBodyParser } from '../../src/http/body/json-body-parser.js';
import { ErrorFilter } from '../../src/http/error.filter.js';

/** The cluster id every controller spec's fake election answers. */
export const CLUSTER_ID = 'spec-cluster';

/** A ControllerElection for the cluster guard and the controllers that name the cluster. */
export const fakeElection = { clusterId: CLUSTER_ID, liveBrokerIds: async () => [0] };

const BODY_BYTES_MAX = 1024 * 1024;

export interface RestTestApp {
  app: NestFastifyApplication;
  http: ReturnType<typeof request>;
  close(): Promise<void>;
}

export async function restTestApp(controllers: Type[], providers: Provider[]): Promise<RestTestApp> {
  const moduleRef = await Test.createTestingModule({
    controllers,
    providers: [{ provide: ControllerElection, useValue: fakeElection }, ...providers],
  }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), {
    bodyParser: false,
    logger: false,
  });
  registerJsonBodyParser(app.getHttpAdapter().getInstance(), BODY_BYTES_MAX);
  app.useGlobalFilters(new ErrorFilter());
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return { app, http: request(app.getHttpAdapter().getInstance().server), close: () => app.close() };
}

/** Asserts a Confluent error answer: the status, the error_code, and a message (matching `message` when given). */
export function expectRejected(
  response: request.Response,
  status: number,
  errorCode: number,
  message?: string | RegExp,
): void {
  expect({ status: response.status, error_code: response.body?.error_code }, response.text).toEqual({
    status,
    error_code: errorCode,
  });
  expect(typeof response.body.message).toBe('string');
  if (message !== undefined) expect(response.body.message).toMatch(message);
}
