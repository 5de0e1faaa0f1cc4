import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  GROWING_PERCENT_MAX,
  OLD_GENERATION_BUDGET_BYTES,
  OldGenerationBudget,
  growingPercentFlag,
  growingPercentFor,
  processOldGenerationBudget,
} from './old-generation-budget.js';

const MB = 1024 * 1024;

describe('growingPercentFor', () => {
  it('leaves OLD_GENERATION_BUDGET_BYTES of room above a W1 broker-sized old generation', () => {
    const live = 30 * MB;
    const percent = growingPercentFor(live);
    expect(live * (1 + percent / 100) - live).toBeGreaterThanOrEqual(OLD_GENERATION_BUDGET_BYTES);
    // and not much more: the next whole percent down would fall short
    expect(live * (1 + (percent - 1) / 100) - live).toBeLessThan(OLD_GENERATION_BUDGET_BYTES);
  });

  it("is at most V8's own highest factor for a small old generation", () => {
    expect(growingPercentFor(4 * MB)).toBe(GROWING_PERCENT_MAX);
    expect(growingPercentFor(0)).toBe(GROWING_PERCENT_MAX);
  });

  it("hands an old generation larger than the budget back to V8's own factor", () => {
    expect(growingPercentFor(OLD_GENERATION_BUDGET_BYTES)).toBe(100);
    expect(growingPercentFor(OLD_GENERATION_BUDGET_BYTES + MB)).toBe(0);
    expect(growingPercentFor(300 * MB)).toBe(0);
  });

  it('follows the budget it is given', () => {
    expect(growingPercentFor(20 * MB, 40 * MB)).toBe(200);
  });
});

describe('OldGenerationBudget', () => {
  function harness() {
    let old = 10 * MB;
    const set: number[] = [];
    const budget = new OldGenerationBudget({
      oldGenerationBytes: () => old,
      setGrowingPercent: (percent) => set.push(percent),
    });
    return {
      budget,
      set,
      liveAfterMarkCompact(bytes: number) {
        old = bytes;
        budget.afterMarkCompact();
      },
    };
  }

  it("sets V8's growing percent from the old generation after each mark-compact", () => {
    const { budget, set, liveAfterMarkCompact } = harness();
    expect(budget.growingPercent).toBeNull();
    liveAfterMarkCompact(10 * MB);
    liveAfterMarkCompact(32 * MB);
    liveAfterMarkCompact(200 * MB);
    expect(set).toEqual([GROWING_PERCENT_MAX, 200, 0]);
    expect(budget.growingPercent).toBe(0);
  });

  it('sets the flag only when the percent changes', () => {
    const { set, liveAfterMarkCompact } = harness();
    liveAfterMarkCompact(32 * MB);
    liveAfterMarkCompact(32 * MB);
    liveAfterMarkCompact(5 * MB);
    liveAfterMarkCompact(6 * MB);
    expect(set).toEqual([200, GROWING_PERCENT_MAX]);
  });
});

describe('the process budget', () => {
  it('leaves V8 the --heap-growing-percent a process was launched with', () => {
    expect(processOldGenerationBudget(50)).toBeNull();
  });
});

describe("V8's --heap-growing-percent set after start", () => {
  // what the budget relies on: V8 reads the flag at each limit computation, not only at start
  it("decides the factor of the next mark-compact's limit", () => {
    const script = `const v8 = require('node:v8');
      globalThis.keep = Array.from({ length: 200000 }, (_, i) => ({ i }));
      v8.setFlagsFromString(${JSON.stringify(growingPercentFlag(213))});
      gc();`;
    const result = spawnSync(process.execPath, ['--expose-gc', '--trace-gc-verbose', '-e', script], {
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/\[HeapController\] Limit: old size: \d+ KB, new limit: \d+ KB \(3\.1\)/);
    const unset = spawnSync(process.execPath, ['--expose-gc', '--trace-gc-verbose', '-e', 'gc()'], {
      encoding: 'utf8',
    });
    expect(unset.stdout).not.toMatch(/new limit: \d+ KB \(3\.1\)/);
  });
});
