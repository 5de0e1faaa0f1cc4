// Fan-out of watch events to prefix subscribers, for any adapter. Delivery is deferred to a microtask so that a
// listener never runs in the middle of a store operation, and a throwing listener cannot break the others or the
// operation that caused the event: its error goes to onListenerError.

import type { WatchEvent, WatchListener } from './coordination-store.js';

interface Subscription {
  prefix: string;
  listener: WatchListener;
  active: boolean;
}

export class WatchHub {
  private readonly subscriptions = new Set<Subscription>();

  constructor(private readonly onListenerError: (error: unknown, event: WatchEvent) => void) {}

  subscribe(prefix: string, listener: WatchListener): () => void {
    const subscription: Subscription = { prefix, listener, active: true };
    this.subscriptions.add(subscription);
    return () => {
      subscription.active = false;
      this.subscriptions.delete(subscription);
    };
  }

  publish(event: WatchEvent): void {
    const targets = [...this.subscriptions].filter((s) => event.key.startsWith(s.prefix));
    if (targets.length === 0) return;
    queueMicrotask(() => {
      for (const subscription of targets) {
        if (!subscription.active) continue;
        try {
          subscription.listener({ ...event });
        } catch (error) {
          this.onListenerError(error, event);
        }
      }
    });
  }

  clear(): void {
    for (const subscription of this.subscriptions) subscription.active = false;
    this.subscriptions.clear();
  }
}
