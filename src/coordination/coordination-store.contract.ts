// The CoordinationStore port's contract as vitest tests, run by each adapter's spec (embedded-store.spec.ts, and
// redis-store.spec.ts against a real redis-server): what the store keeps (coordination-store-values.contract.ts)
// and what time and watchers see (coordination-store-expiry.contract.ts). makeStore must hand out an empty store;
// advanceMs, when given, moves the store's clock (otherwise TTL tests wait in real time with short TTLs); reopen,
// when given, closes the store and opens a new one over the same data; cleanup closes whatever is open and removes
// the data (coordination-store-contract-context.ts).
import { describe } from 'vitest';

import { contractContext, type CoordinationStoreFixture } from './coordination-store-contract-context.js';
import { describeExpiryAndWatchContract } from './coordination-store-expiry.contract.js';
import { describeStoredValuesContract } from './coordination-store-values.contract.js';

export type { CoordinationStoreFixture };

export function describeCoordinationStoreContract(
  name: string,
  makeStore: () => Promise<CoordinationStoreFixture>,
): void {
  describe(`CoordinationStore contract: ${name}`, () => {
    const context = contractContext(makeStore);
    describeStoredValuesContract(context);
    describeExpiryAndWatchContract(context);
  });
}
