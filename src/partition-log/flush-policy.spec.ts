import { describe, expect, it } from 'vitest';
import { FlushPolicy } from './flush-policy.js';

const NEVER = Number.MAX_SAFE_INTEGER;

describe('FlushPolicy', () => {
  it('is due once flush.messages messages are unflushed, counted across appends', () => {
    const policy = new FlushPolicy(0);
    const settings = { flushMessages: 3, flushMs: NEVER };
    expect(policy.dueAfterAppend(1, 0, settings)).toBe(false);
    expect(policy.dueAfterAppend(1, 0, settings)).toBe(false);
    expect(policy.dueAfterAppend(1, 0, settings)).toBe(true);
    policy.flushed(0);
    expect(policy.dueAfterAppend(2, 0, settings)).toBe(false);
    expect(policy.dueAfterAppend(5, 0, settings)).toBe(true);
  });

  it('is due on append once flush.ms has passed since the last flush (or since it started)', () => {
    const policy = new FlushPolicy(1000);
    const settings = { flushMessages: NEVER, flushMs: 50 };
    expect(policy.dueAfterAppend(1, 1049, settings)).toBe(false);
    expect(policy.dueAfterAppend(1, 1050, settings)).toBe(true);
    policy.flushed(1060);
    expect(policy.dueAfterAppend(1, 1100, settings)).toBe(false);
    expect(policy.dueAfterAppend(1, 1110, settings)).toBe(true);
  });

  it('by time alone it is due only with something unflushed', () => {
    const policy = new FlushPolicy(0);
    const settings = { flushMessages: NEVER, flushMs: 10 };
    expect(policy.dueByTime(100, settings)).toBe(false);
    policy.dueAfterAppend(1, 5, { flushMessages: NEVER, flushMs: NEVER });
    expect(policy.dueByTime(9, settings)).toBe(false);
    expect(policy.dueByTime(10, settings)).toBe(true);
    policy.flushed(10);
    expect(policy.dueByTime(100, settings)).toBe(false);
  });

  it('the default settings (both never) are never due', () => {
    const policy = new FlushPolicy(0);
    const settings = { flushMessages: NEVER, flushMs: NEVER };
    expect(policy.dueAfterAppend(1_000_000, 1_000_000_000, settings)).toBe(false);
    expect(policy.dueByTime(1_000_000_000, settings)).toBe(false);
  });
});
