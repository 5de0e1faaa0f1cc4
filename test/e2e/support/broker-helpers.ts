// Small helpers of the end-to-end tests against a broker process: create a topic (expecting 201), read the
// process's resident memory from /proc, sleep.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { BrokerProcess } from './broker-process.js';
import { call } from './http.js';

export async function createTopic(target: BrokerProcess, name: string, partitions: number): Promise<void> {
  await createTopicAt(target.url, await target.clusterId(), name, partitions);
}

/** Creates a topic through the broker at `url` of cluster `cid`. */
export async function createTopicAt(url: string, cid: string, name: string, partitions: number): Promise<void> {
  const response = await call(url, 'POST', `/v3/clusters/${cid}/topics`, {
    body: { topic_name: name, partitions_count: partitions },
  });
  expect(response.status, response.text).toBe(201);
}

/** The resident memory of process `pid` (VmRSS), in bytes. */
export function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (match === null) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]) * 1024;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
