// One reason a reader's schema cannot read what a writer's schema wrote, worded once both are named: Confluent's
// messages say "the new schema" and "the old schema", in whichever roles the compatibility level gives them.
export interface Incompatibility {
  describe(readerName: string, writerName: string): string;
}
