import { CONTROLLER_EPOCH_KEY } from '../coordination/cluster-keys.js';
import type { Fence } from '../coordination/coordination-store.js';

/** The fence of every controller write: the controller-epoch counter must still hold this controller's epoch. */
export function epochFence(epoch: number): Fence {
  return { counterKey: CONTROLLER_EPOCH_KEY, value: epoch };
}
