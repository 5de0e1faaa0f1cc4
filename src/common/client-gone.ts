// A long-polling route's signal that the client has gone: aborted when its connection closes before the answer is
// sent, so the request's waits end. The response's 'close' also comes after every answer that was sent; aborting
// then would only build an AbortError (with its stack) per request for waits that are already over.
import type { ServerResponse } from 'node:http';

export function clientGoneSignal(response: ServerResponse): AbortSignal {
  const abort = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) abort.abort();
  });
  return abort.signal;
}
