// The assignor registry: the coordinator looks up the assignor a group uses by its name; range is the default, as
// in Kafka.

import type { Assignor, AssignorName } from './assignor.js';
import { rangeAssignor } from './range-assignor.js';
import { roundRobinAssignor } from './round-robin-assignor.js';
import { stickyAssignor } from './sticky-assignor.js';

const ASSIGNORS: Readonly<Record<AssignorName, Assignor>> = {
  range: rangeAssignor,
  roundrobin: roundRobinAssignor,
  sticky: stickyAssignor,
};

export const ASSIGNOR_NAMES = Object.keys(ASSIGNORS) as readonly AssignorName[];

export const DEFAULT_ASSIGNOR_NAME: AssignorName = 'range';

export function assignorFor(name: AssignorName = DEFAULT_ASSIGNOR_NAME): Assignor {
  return ASSIGNORS[name];
}
