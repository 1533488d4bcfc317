// A TCP proxy a test puts between a client and a real service (PostgreSQL, Redis) to cut it:
//   pass       forwards bytes both ways;
//   partition  a network partition: connections open at that moment, and any accepted while it
//              lasts, stay open but never forward another byte, in either direction, even after
//              the partition ends (their peers must notice through timeouts or keepalive);
//   refuse     the service is down: the port is closed (new connections are refused) and open
//              connections are reset.
// Back to pass, new connections forward again on the same port.
import { connect, createServer, type Server, type Socket } from 'node:net';

export type TcpProxyMode = 'pass' | 'partition' | 'refuse';

export type TcpProxy = {
  /** The proxy's port on 127.0.0.1 (the same in every mode). */
  readonly port: number;
  readonly mode: TcpProxyMode;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Bytes that reached a partition and went no further, in either direction (a test waits on it
   * to know a request is stuck rather than not yet sent). */
  readonly dropped: number;
  setMode(mode: TcpProxyMode): Promise<void>;
  close(): Promise<void>;
};

/**
 * Cuts a connection as a service going down does: with a reset (RST), unless its write side has
 * already ended. libuv refuses to reset a socket whose shutdown is under way (EINVAL), and Node then
 * never closes it: no 'close' event, and the process spins at 100 % CPU in its exit clean-up. Such
 * a socket is destroyed instead (its peer has already seen or asked for the end).
 */
export function cutConnection(socket: Socket): void {
  if (socket.writableEnded || socket.destroyed) socket.destroy();
  else socket.resetAndDestroy();
}

/** A proxied connection; `upstream` is absent for one accepted during a partition. */
type Pair = { client: Socket; upstream?: Socket; dead: boolean };

/** Starts a proxy on a free port of 127.0.0.1 in front of `target` (host:port). */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  // Every socket still open, whatever its pair became: a partitioned pair whose client has gone
  // keeps its upstream connection open (nothing gets through a partition), and close() must still
  // end it, or it keeps the test's process alive.
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  let mode: TcpProxyMode = 'pass';
  let accepted = 0;
  let dropped = 0;
  let server: Server | undefined;
  let port = 0;

  function onConnection(client: Socket): void {
    accepted++;
    track(client);
    client.on('error', () => {});
    if (mode !== 'pass') {
      const pair: Pair = { client, dead: true };
      pairs.add(pair);
      client.on('data', (chunk) => void (dropped += chunk.length));
      client.on('close', () => pairs.delete(pair));
      return;
    }
    const upstream = connect(target.port, target.host);
    track(upstream);
    upstream.on('error', () => {});
    const pair: Pair = { client, upstream, dead: false };
    pairs.add(pair);
    client.on('data', (chunk) => void (pair.dead ? (dropped += chunk.length) : upstream.write(chunk)));
    upstream.on('data', (chunk) => void (pair.dead ? (dropped += chunk.length) : client.write(chunk)));
    // Either side closing closes the other, except across a partition: nothing gets through it.
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    // A partitioned pair keeps its upstream open (the service must not learn of the client
    // leaving), until close() cuts it.
    client.on('close', () => (pair.dead ? undefined : end()));
    upstream.on('close', () => (pair.dead ? undefined : end()));
  }

  async function listen(): Promise<void> {
    server = createServer(onConnection);
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(port, '127.0.0.1', () => resolve());
    });
    port = (server.address() as { port: number }).port;
  }

  async function unlisten(): Promise<void> {
    const s = server;
    server = undefined;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  await listen();

  return {
    get port() {
      return port;
    },
    get mode() {
      return mode;
    },
    get accepted() {
      return accepted;
    },
    get dropped() {
      return dropped;
    },
    async setMode(next) {
      if (next === mode) return;
      if (next === 'partition') {
        for (const pair of pairs) pair.dead = true;
      } else if (next === 'refuse') {
        for (const pair of pairs) {
          cutConnection(pair.client);
          pair.upstream?.destroy();
        }
        pairs.clear();
        await unlisten();
      }
      if (next !== 'refuse' && !server) await listen();
      mode = next;
    },
    async close() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream?.destroy();
      }
      pairs.clear();
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      await unlisten();
    },
  };
}
