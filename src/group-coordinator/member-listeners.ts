// The listeners of group members this broker serves (WebSocket and SSE subscriptions, REST instances): each is
// called with the member's assignment after every generation it is part of, and with null when it is gone (then
// forgotten). One listener per member; a failing listener is logged and does not stop the others.
import type { LoggerService } from '@nestjs/common';
import type { MemberAssignment } from './consumer-group.js';

export type MemberListener = (assignment: MemberAssignment | null) => void;

export class MemberListeners {
  private readonly listeners = new Map<string, MemberListener>();

  constructor(private readonly logger: LoggerService) {}

  /** Registers the member's listener; returns the function that removes it (if it is still the one). */
  watch(groupId: string, memberId: string, listener: MemberListener): () => void {
    const key = listenerKey(groupId, memberId);
    this.listeners.set(key, listener);
    return () => {
      if (this.listeners.get(key) === listener) this.listeners.delete(key);
    };
  }

  forget(groupId: string, memberId: string): void {
    this.listeners.delete(listenerKey(groupId, memberId));
  }

  notify(groupId: string, memberId: string, assignment: MemberAssignment | null): void {
    const key = listenerKey(groupId, memberId);
    const listener = this.listeners.get(key);
    if (listener === undefined) return;
    if (assignment === null) this.listeners.delete(key);
    try {
      listener(assignment);
    } catch (error) {
      this.logger.warn(`member listener failed: ${(error as Error).message}`);
    }
  }
}

function listenerKey(groupId: string, memberId: string): string {
  return `${groupId}\u0000${memberId}`;
}
