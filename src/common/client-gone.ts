// A long-polling route's signal that the client has gone: aborted when its connection closes before the answer is
// sent, so the request's waits end. The response's 'close' also comes after every answer that was sent; aborting
// then would only build an AbortError (with its stack) per request for waits that are already over.
//
// Two forms: clientGoneSignal, an AbortSignal (for waits that pass it on to APIs taking one), and clientGone, a
// WaitSignal: what a long poll's waiter uses of a signal (aborted, one 'abort' listener added and removed), without
// an AbortController. Node 20 builds an AbortSignal in about 5 us of CPU (an EventTarget with its internal
// state), which the follower fetch route paid on every fetch, about one a produce request under acks=all.
import type { ServerResponse } from 'node:http';

export function clientGoneSignal(response: ServerResponse): AbortSignal {
  const abort = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) abort.abort();
  });
  return abort.signal;
}

/** What a waiter uses of a signal; an AbortSignal is one. */
export interface WaitSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** The WaitSignal of `response`: aborted when its connection closes before the answer has been sent. */
export function clientGone(response: ServerResponse): WaitSignal {
  const gone = new ClientGone();
  response.once('close', () => {
    if (!response.writableFinished) gone.abort();
  });
  return gone;
}

class ClientGone implements WaitSignal {
  aborted = false;
  private listeners: Array<() => void> | null = null;

  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.aborted) return; // as an AbortSignal: an abort event comes once
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.listeners?.indexOf(listener) ?? -1;
    if (index >= 0) this.listeners!.splice(index, 1);
  }

  /** Every listener is called once (as added with `once`), then dropped. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = this.listeners ?? [];
    this.listeners = null;
    for (const listener of listeners) listener();
  }
}
