// A small seeded pseudo-random generator (mulberry32) for the fault tests: a schedule drawn from a seed is the same
// schedule when the seed is given again (BROOK_FAULT_SEED), although what the brokers do in it depends on timing.

export class SeededRandom {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** The seed of BROOK_FAULT_SEED when set, else a fresh one. */
  static fromEnvironment(): SeededRandom {
    const given = process.env.BROOK_FAULT_SEED;
    const seed = given === undefined ? Math.floor(Math.random() * 2 ** 32) : Number(given);
    if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`BROOK_FAULT_SEED must be an integer, not ${given}`);
    return new SeededRandom(seed);
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  }

  /** An integer in [min, max]. */
  integer(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('nothing to pick from');
    return items[this.integer(0, items.length - 1)];
  }

  shuffled<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = this.integer(0, i);
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy;
  }
}
