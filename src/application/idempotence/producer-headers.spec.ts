import { describe, expect, it } from 'vitest';
import { BrookError } from '../../common/brook-error.js';
import { KEY_PRODUCER_ID_BASE } from '../../partition-log/producer-state.js';
import { producerFromHeaders } from './producer-headers.js';

function refusal(headers: Record<string, string | string[]>): string {
  try {
    producerFromHeaders(headers);
  } catch (error) {
    expect(error).toBeInstanceOf(BrookError);
    expect((error as BrookError).status).toBe(400);
    return (error as BrookError).message;
  }
  throw new Error('not refused');
}

describe('producerFromHeaders', () => {
  it('reads the three headers, or none', () => {
    expect(producerFromHeaders({})).toBeNull();
    expect(
      producerFromHeaders({ 'brook-producer-id': '42', 'brook-producer-epoch': '3', 'brook-producer-sequence': '7' }),
    ).toEqual({ producerId: 42, producerEpoch: 3, sequence: 7 });
  });

  it('refuses partial, repeated, negative, fractional and out-of-range fields', () => {
    expect(refusal({ 'brook-producer-id': '42' })).toMatch(/Brook-Producer-Epoch is missing/);
    const full = { 'brook-producer-id': '1', 'brook-producer-epoch': '0', 'brook-producer-sequence': '0' };
    expect(refusal({ ...full, 'brook-producer-sequence': '-1' })).toMatch(/Sequence must be an integer/);
    expect(refusal({ ...full, 'brook-producer-sequence': '1.5' })).toMatch(/Sequence must be an integer/);
    expect(refusal({ ...full, 'brook-producer-sequence': String(2 ** 31) })).toMatch(/Sequence/);
    expect(refusal({ ...full, 'brook-producer-epoch': '32768' })).toMatch(/Epoch/);
    expect(refusal({ ...full, 'brook-producer-id': String(KEY_PRODUCER_ID_BASE) })).toMatch(/Id/);
    expect(refusal({ ...full, 'brook-producer-id': ['1', '2'] })).toMatch(/once/);
  });
});
