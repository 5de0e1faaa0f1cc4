// What every schema comparison carries along while it walks two schemas: the differences found, each with the
// path where it was found (`#/a/b`), the step budget shared with its trial comparisons, and the nodes being
// compared further up the path (so recursive schemas terminate). The JSON Schema and Protobuf comparisons extend
// it with their own change names and rule tables.
import type { StepBudget } from './compatibility-types.js';

export interface SchemaDifference<Change extends string> {
  readonly change: Change;
  readonly path: string;
}

export abstract class ComparisonContext<Change extends string, Node> {
  readonly differences: SchemaDifference<Change>[] = [];

  protected constructor(
    private readonly rules: Readonly<Record<Change, { readonly compatible: boolean }>>,
    readonly budget: StepBudget,
    protected readonly path: string[],
    protected readonly comparing: Set<Node>,
  ) {}

  /** Records a difference at this path (or at one attribute below it). */
  add(change: Change, attribute?: string): void {
    const segments = attribute === undefined ? this.path : [...this.path, attribute];
    this.differences.push({ change, path: `#/${segments.join('/')}` });
  }

  /** Takes over the differences of a trial comparison. */
  adopt(differences: readonly SchemaDifference<Change>[]): void {
    this.differences.push(...differences);
  }

  /** Runs `body` one segment further down the path. */
  within(segment: string, body: () => void): void {
    this.path.push(segment);
    try {
      body();
    } finally {
      this.path.pop();
    }
  }

  /** Runs `body` unless `node` is already being compared further up this path. */
  entering(node: Node, body: () => void): void {
    if (this.comparing.has(node)) return;
    this.comparing.add(node);
    try {
      body();
    } finally {
      this.comparing.delete(node);
    }
  }

  isCompatible(): boolean {
    return this.differences.every((difference) => this.rules[difference.change].compatible);
  }
}
