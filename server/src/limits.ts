/**
 * The bounds of a connection below the routes (docs/server.md, "Safety"): how many connections the
 * server holds in all, and how many requests one connection may have whose answers have not left
 * the process.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The descriptors the process may open, as Linux tells it (`/proc/self/limits`: Node raises its
 * soft limit to the hard one at start); null where that cannot be read or says `unlimited`.
 */
export function descriptorLimit(read: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | null {
  let text: string;
  try {
    text = read();
  } catch {
    return null;
  }
  const soft = /^Max open files\s+(\d+)\s/m.exec(text)?.[1];
  return soft === undefined ? null : Number(soft);
}

/** The descriptors assumed where the process's cannot be read. */
const ASSUMED_DESCRIPTORS = 4096;

/**
 * Connections the server holds in all by default: the process's descriptors less a reserve for what
 * else it opens (the database's connections or files, the mail gateway's, the web client's assets,
 * the bot threads), an eighth of them and at least 256; never fewer than 16.
 */
export function connectionsInAll(descriptors: number | null = descriptorLimit()): number {
  const n = descriptors ?? ASSUMED_DESCRIPTORS;
  return Math.max(16, n - Math.max(256, Math.ceil(n / 8)));
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * `handle` (fastify's request listener) behind a bound of `most` requests per connection whose
 * answers have not left the process: answered and handed to the kernel (a response's `finish`), or
 * given up (`close`). A client that pipelines requests without reading their answers has them pile
 * up here, each a request the routes hold in memory (Node stops reading the socket only once an
 * answer waits to be written, and parses the whole chunk it has read first: some 1,700 small
 * requests in 64 KB, each answered later, when fastify has run its hooks); one more than `most` closes
 * its connection (and is told to `piledUp`), and what the parser still finds in the chunk already
 * read reaches no route. A request on a connection no longer `admitted` (its address shut out)
 * closes it too.
 */
export function boundInFlight(handle: RequestListener, most: number, on: { readonly admitted: (socket: Socket) => boolean; readonly piledUp: (socket: Socket) => void }): RequestListener {
  const inFlight = new WeakMap<Socket, number>();
  return function inLine(this: unknown, req, res) {
    const socket = req.socket;
    if (socket.destroyed) return;
    if (!on.admitted(socket)) {
      socket.destroy();
      return;
    }
    const n = (inFlight.get(socket) ?? 0) + 1;
    if (n > most) {
      socket.destroy();
      on.piledUp(socket);
      return;
    }
    inFlight.set(socket, n);
    let out = false;
    const done = () => {
      if (out) return;
      out = true;
      inFlight.set(socket, inFlight.get(socket)! - 1);
    };
    res.once('finish', done);
    res.once('close', done);
    handle.call(this, req, res);
  };
}

/**
 * Client addresses shut out for a while (`ms`), at most `most` of them (the oldest let in first):
 * an address whose connection was closed for what it piled up would otherwise reconnect at once,
 * and each new connection costs the server the parsing of what it sends before it is closed again.
 */
export class ShutOut {
  private readonly until = new Map<string, number>();

  constructor(private readonly ms: number, private readonly most: number, private readonly now: () => number = Date.now) {}

  add(address: string): void {
    this.until.delete(address);
    this.until.set(address, this.now() + this.ms);
    if (this.until.size > this.most) this.until.delete(this.until.keys().next().value!);
  }

  has(address: string): boolean {
    const until = this.until.get(address);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(address);
    return false;
  }
}
