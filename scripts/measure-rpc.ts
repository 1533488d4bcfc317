// One-off throughput measurement of eth_getTransactionByHash: Hardhat node directly, through
// /rpc without cache, and through /rpc with the cache warm. Usage: npx tsx scripts/measure-rpc.ts [seconds]
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import express from 'express';
import { JsonRpcProvider } from 'ethers';
import { startDemoChain } from '../src/demo/chain.ts';
import { createRpcRouter } from '../src/rpc/index.ts';

const seconds = Number(process.argv[2] ?? 10);

async function serve(cacheSize: number, upstreamUrl: string): Promise<{ url: string; server: Server }> {
  const app = express();
  app.use(createRpcRouter({ upstreamUrl, cacheSize }));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`, server };
}

// autocannon runs in its own process so the load generator does not share the event loop
// with the servers being measured.
async function run(name: string, url: string, body: string): Promise<void> {
  const { stdout: out } = await promisify(execFile)(
    'node_modules/.bin/autocannon',
    ['-j', '-c', '16', '-d', String(seconds), '-m', 'POST', '-H', 'content-type=application/json', '-b', body, url],
    { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  const result = JSON.parse(out) as { requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number };
  const bad = result.non2xx + result.errors;
  console.log(
    `${name.padEnd(22)} ${Math.round(result.requests.average).toString().padStart(7)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  errors ${bad}`,
  );
}

const chain = await startDemoChain();
const provider = new JsonRpcProvider(chain.url, undefined, { staticNetwork: true });
const signer = await provider.getSigner(0);
const tx = await signer.sendTransaction({ to: await (await provider.getSigner(1)).getAddress(), value: 1n });
await tx.wait();
provider.destroy();
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionByHash', params: [tx.hash] });

const uncached = await serve(0, chain.url);
const cached = await serve(10_000, chain.url);
console.log(`eth_getTransactionByHash, 16 connections, ${seconds}s each, node ${process.version}`);
await run('hardhat direct', chain.url, body);
await run('/rpc uncached', uncached.url, body);
await run('/rpc cached', cached.url, body);
uncached.server.close();
cached.server.close();
await chain.stop();
process.exit(0);
