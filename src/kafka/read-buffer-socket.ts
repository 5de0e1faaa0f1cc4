// A plain TCP connection accepted by a net.Server, taken into a Socket whose reads land in buffers the caller
// chooses read by read (net's `onread` option with a buffer function: a read buffer it reuses, or the memory a
// large frame's rest is to be read into) instead of a fresh 64 KiB buffer per read, pushed through a Readable
// stream and emitted as 'data'. Node offers `onread` only for the sockets it creates (net.connect, new Socket), not for a
// server's accepted ones, so this moves the accepted socket's handle into a new Socket created with it.
//
// What it relies on (Node 20's lib/net.js; kafka-listener.e2e and read-buffer-socket.spec check it still holds):
//   - the server is created with `pauseOnConnect`, so the accepted handle has not started reading;
//   - `socket._handle` is the accepted socket's libuv handle, and `new Socket({ handle, onread })` takes a handle
//     (the constructor the server itself uses); with `onread.buffer` a function, it calls it once there and then
//     after each read, reads next into the buffer it returned (up to its length), and calls
//     `onread.callback(nread, buf)` synchronously for each read with that buffer; pause() and resume() stop and start the handle's reads; end of stream, errors,
//     the idle timeout and writes work as on any socket;
//   - the accepted socket stays the one the server counts (maxConnections; server.close() waiting for its
//     connections): it gives up its handle here and is destroyed, without one, once the new socket has closed.
// TLS sockets are not taken (they read through their own stream): callers keep 'data' events for them.
import { Socket, type SocketConstructorOpts } from 'node:net';

/** Where the next read lands (at least one byte long); called before the first read and after each one. */
export type ReadTarget = () => Buffer;

/** What each read delivered: the start of the last ReadTarget's buffer, which may be read into again afterwards. */
export type ReadCallback = (bytes: Buffer) => void;

interface HandleOwner {
  _handle: object | null;
}

/**
 * Moves `accepted` (from a server created with pauseOnConnect) into a Socket that reads into what `target` returns
 * and calls `onRead` with each read; null (and `accepted` untouched) when it has no handle to give.
 */
export function takeWithReadBuffer(accepted: Socket, target: ReadTarget, onRead: ReadCallback): Socket | null {
  const owner = accepted as unknown as HandleOwner;
  const handle = owner._handle;
  if (handle === null || handle === undefined || accepted.destroyed) return null;
  owner._handle = null;
  const options = {
    handle,
    onread: { buffer: target, callback: (nread: number, buffer: Buffer) => onRead(buffer.subarray(0, nread)) },
  };
  const socket = new Socket(options as SocketConstructorOpts);
  socket.once('close', () => accepted.destroy());
  return socket;
}
