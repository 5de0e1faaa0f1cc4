// A test client for GET /v3/ws on the plain `ws` package: sends frames, keeps every frame received in order, and
// waits for frames matching a predicate.
import WebSocket from 'ws';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Frame = Record<string, any>;

export class WsClient {
  readonly frames: Frame[] = [];
  closeCode: number | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly closed: Promise<number>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()) as Frame);
      for (const listener of [...this.listeners]) listener();
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', (code) => {
        this.closeCode = code;
        for (const listener of [...this.listeners]) listener();
        resolve(code);
      }),
    );
  }

  static connect(baseUrl: string, options: WebSocket.ClientOptions = {}): Promise<WsClient> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/v3/ws`, options);
    const client = new WsClient(socket);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(client));
      socket.once('error', reject);
    });
  }

  send(frame: Frame | string): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Waits for the first frame (from index `from`) matching `match`; fails after `timeoutMs` or on close. */
  next(match: (frame: Frame) => boolean, timeoutMs = 5_000, from = 0): Promise<Frame> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.frames.slice(from).find(match);
        if (found !== undefined) return done(() => resolve(found));
        if (this.closeCode !== null) return done(() => reject(new Error(`socket closed (${this.closeCode})`)));
      };
      const timer = setTimeout(
        () =>
          done(() =>
            reject(new Error(`no matching frame in ${timeoutMs} ms; got ${JSON.stringify(this.frames.slice(-5))}`)),
          ),
        timeoutMs,
      );
      const done = (settle: () => void) => {
        clearTimeout(timer);
        this.listeners.delete(check);
        settle();
      };
      this.listeners.add(check);
      check();
    });
  }

  /** Sends a frame and waits for the reply with the same id (any op but `records`). */
  async request(frame: Frame, timeoutMs = 5_000): Promise<Frame> {
    const from = this.frames.length;
    this.send(frame);
    return this.next((reply) => reply.id === frame.id && reply.op !== 'records', timeoutMs, from);
  }

  /** Records received so far on subscription `id`, flattened in arrival order. */
  records(id: string | number): Frame[] {
    return this.frames.filter((frame) => frame.op === 'records' && frame.id === id).flatMap((frame) => frame.records);
  }

  async waitForRecords(id: string | number, count: number, timeoutMs = 10_000): Promise<Frame[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.records(id).length < count) {
      if (Date.now() > deadline)
        throw new Error(`got ${this.records(id).length} of ${count} records in ${timeoutMs} ms`);
      if (this.closeCode !== null) throw new Error(`socket closed (${this.closeCode})`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return this.records(id);
  }

  /** The close code, once the socket has closed; fails after `timeoutMs`. */
  waitClosed(timeoutMs = 30_000): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`socket still open after ${timeoutMs} ms`)), timeoutMs);
      void this.closed.then((code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  close(): void {
    this.socket.close();
  }
}
