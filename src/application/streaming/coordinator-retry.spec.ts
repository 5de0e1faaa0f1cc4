import { describe, expect, it } from 'vitest';
import { errors } from '../../common/brook-error.js';
import { COORDINATOR_ATTEMPTS_MAX, withCoordinatorRetries } from './coordinator-retry.js';

function ports(abandonAfter = Infinity) {
  const pauses: number[] = [];
  return {
    pauses,
    sleep: async (ms: number) => {
      pauses.push(ms);
    },
    abandoned: () => pauses.length >= abandonAfter,
  };
}

describe('withCoordinatorRetries', () => {
  it('asks again after a coordinator that is loading or moving, with growing pauses, until it answers', async () => {
    const answers = [
      errors.retriable('The coordinator of group g is loading its state; retry.'),
      errors.brokerNotAvailable('The coordinator is not reachable.'),
      errors.retriable('Broker 2 is not the coordinator of group g; retry.'),
    ];
    const retry = ports();
    const result = await withCoordinatorRetries(async () => {
      const next = answers.shift();
      if (next !== undefined) throw next;
      return 'joined';
    }, retry);
    expect(result).toBe('joined');
    expect(retry.pauses).toEqual([100, 200, 400]);
  });

  it("hands any other error over at once: it is the member's answer", async () => {
    const retry = ports();
    await expect(withCoordinatorRetries(() => Promise.reject(errors.topicNotFound('t')), retry)).rejects.toMatchObject({
      errorCode: 40401,
    });
    expect(retry.pauses).toEqual([]);
  });

  it('gives up after COORDINATOR_ATTEMPTS_MAX attempts, or once the stream is gone', async () => {
    let attempts = 0;
    const failing = () => {
      attempts++;
      return Promise.reject(errors.retriable('loading'));
    };
    const retry = ports();
    await expect(withCoordinatorRetries(failing, retry)).rejects.toMatchObject({ errorCode: 50003 });
    expect(attempts).toBe(COORDINATOR_ATTEMPTS_MAX);
    expect(Math.max(...retry.pauses)).toBe(1_000);
    attempts = 0;
    await expect(withCoordinatorRetries(failing, ports(2))).rejects.toMatchObject({ errorCode: 50003 });
    expect(attempts).toBe(3);
  });
});
