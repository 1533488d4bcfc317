// The TCP proxy the fault tests cut services with: it forwards, partitions (silently, for good,
// for the connections it holds) and refuses, on a plain echo server.
import assert from 'node:assert/strict';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { cutConnection, startTcpProxy, type TcpProxy } from './tcpProxy.ts';

function echo(): Promise<Server> {
  const server = createServer((s) => s.pipe(s));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

/** What comes back for `text` within `ms`, or null. */
function roundTrip(s: Socket, text: string, ms = 300): Promise<string | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => (s.off('data', onData), resolve(null)), ms);
    const onData = (chunk: Buffer) => (clearTimeout(timer), s.off('data', onData), resolve(chunk.toString()));
    s.on('data', onData);
    s.write(text);
  });
}

describe('tcp proxy', () => {
  let server: Server;
  let proxy: TcpProxy;
  before(async () => {
    server = await echo();
    proxy = await startTcpProxy({ host: '127.0.0.1', port: (server.address() as { port: number }).port });
  });
  after(async () => {
    await proxy.close();
    server.close();
  });

  it('forwards, partitions silently and for good, refuses, and forwards again on the same port', async () => {
    const port = proxy.port;
    const a = await open(port);
    assert.equal(await roundTrip(a, 'one'), 'one');

    await proxy.setMode('partition');
    assert.equal(await roundTrip(a, 'two'), null, 'nothing crosses a partition');
    const b = await open(port); // accepted, but goes nowhere
    assert.equal(await roundTrip(b, 'three'), null);
    assert.equal(proxy.dropped, 'twothree'.length, 'what reached the partition is counted');
    assert.equal(a.destroyed, false, 'the connection is not closed: its peer must notice');

    await proxy.setMode('refuse');
    await assert.rejects(open(port), /ECONNREFUSED/);

    await proxy.setMode('pass');
    assert.equal(proxy.port, port);
    const c = await open(port);
    assert.equal(await roundTrip(c, 'four'), 'four');
    for (const s of [a, b, c]) s.destroy();
  });
});

describe('cutting a connection', () => {
  /** A fresh connection: `near` is the server's end of it, `far` the client's. */
  async function pair(): Promise<{ server: Server; near: Socket; far: Socket }> {
    let accept!: (s: Socket) => void;
    const accepted = new Promise<Socket>((resolve) => (accept = resolve));
    const server = createServer((s) => (s.on('error', () => {}), accept(s)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const far = await open((server.address() as { port: number }).port);
    far.on('error', () => {});
    return { server, near: await accepted, far };
  }

  function closes(s: Socket, ms = 2000): Promise<boolean> {
    return new Promise((resolve) => {
      if (s.closed) return resolve(true);
      const timer = setTimeout(() => resolve(false), ms);
      s.once('close', () => (clearTimeout(timer), resolve(true)));
    });
  }

  it('resets an open connection: its peer sees ECONNRESET', async () => {
    const { server, near, far } = await pair();
    const farError = new Promise<string | undefined>((resolve) => far.once('error', (e: NodeJS.ErrnoException) => resolve(e.code)));
    cutConnection(near);
    assert.equal(await closes(near), true);
    assert.equal(await farError, 'ECONNRESET');
    server.close();
  });

  it('closes a connection whose shutdown is under way (a reset is refused there, and the socket would never close)', async () => {
    const { server, near, far } = await pair();
    near.end(); // the shutdown is issued; libuv answers a reset now with EINVAL
    cutConnection(near);
    assert.equal(await closes(near), true, "the cut socket emitted 'close'");
    far.destroy();
    server.close();
  });
});
