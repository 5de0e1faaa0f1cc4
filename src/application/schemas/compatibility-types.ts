// One reason a reader's schema cannot read what a writer's schema wrote, worded once both are named: Confluent's
// messages say "the new schema" and "the old schema", in whichever roles the compatibility level gives them. And
// the bound on how much work one comparison may do: combinations compared member by member and messages used by
// many fields could otherwise make a hostile schema cost exponential time.
export interface Incompatibility {
  describe(readerName: string, writerName: string): string;
}

/** How many schema nodes one comparison of two schemas may visit. */
export const MAX_COMPATIBILITY_STEPS = 100_000;

/** Thrown by a comparison that has used up its steps; the schemas are then taken to be incompatible. */
export class ComparisonTooComplex extends Error {
  constructor() {
    super(`the schemas are too complex to compare within ${MAX_COMPATIBILITY_STEPS} steps`);
  }
}

/** Steps left to a comparison, shared by all its trial comparisons. */
export class StepBudget {
  private remaining = MAX_COMPATIBILITY_STEPS;

  /** Takes a step; throws ComparisonTooComplex when there is none left. */
  take(): void {
    if (--this.remaining < 0) throw new ComparisonTooComplex();
  }

  /** Takes a step; false when there is none left. */
  tryTake(): boolean {
    return --this.remaining >= 0;
  }
}

/** The incompatibility of schemas whose comparison ran out of steps. */
export function tooComplex(error: ComparisonTooComplex): Incompatibility {
  return { describe: () => `{errorType:"COMPARISON_TOO_COMPLEX", description:"${error.message}"}` };
}
