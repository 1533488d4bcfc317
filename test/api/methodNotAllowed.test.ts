// Issue 30 (8): every route answers a method it does not serve with 405 and Allow — the spec's
// operations (express-openapi-validator's 405 now carries its Allow), the routes outside the
// document (health, metrics, docs, explorer: 404 before) and /rpc — and a path that no route
// serves is still 404. Through the production handler on a listening server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request as httpRequest } from 'node:http';
import { startHttpServer, type HttpServer } from '../../src/api/startHttpServer.ts';
import type { Database } from '../../src/db/index.ts';
import { createDocsRouter } from '../../src/docs/index.ts';
import { createExplorerRouter } from '../../src/explorer/index.ts';
import { createRpcHandler, rpcPath } from '../../src/rpc/index.ts';
import { createChainClient } from '../../src/chain/index.ts';
import { stubChainNode } from '../helpers/mainProcess.ts';
import { everyOperation } from '../helpers/operationUrls.ts';
import { openPglite } from '../helpers/pglite.ts';
import { testApp } from '../helpers/testApp.ts';
import type { Server } from 'node:http';

type Answer = { status: number; allow: string | undefined; type: string | undefined; body: string };

function send(base: string, method: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('405 with Allow on every route', () => {
  let db: Database;
  let server: HttpServer;
  let node: Server;
  const token = `0x${'11'.repeat(20)}`;
  before(async () => {
    db = await openPglite();
    const stub = await stubChainNode();
    node = stub.server;
    const rpc = createRpcHandler({ upstreamUrl: stub.url, client: createChainClient({ url: stub.url, maxRetries: 0 }) });
    const app = testApp(db, { routers: [createDocsRouter(), createExplorerRouter()], rpc: { path: rpcPath, handler: rpc } });
    server = await startHttpServer(app, { port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await server?.close();
    node?.close();
    await db?.close();
  });

  const methods = ['PUT', 'DELETE', 'PATCH', 'TRACE', 'POST'];

  it('routes outside the API (health, metrics, docs, explorer): 405, Allow GET, HEAD', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics', '/docs', '/docs/openapi.html', '/openapi.yaml', '/openapi.json', '/openrpc.json', '/explorer', '/explorer/assets/explorer.js']) {
      for (const method of methods) {
        const answer = await send(server.url, method, path);
        assert.equal(answer.status, 405, `${method} ${path}: ${answer.status} ${answer.body}`);
        assert.equal(answer.allow, 'GET, HEAD', `${method} ${path}`);
        assert.match(answer.type ?? '', /application\/problem\+json/);
      }
    }
  });

  it('every operation of the spec: 405 with Allow GET, HEAD', async () => {
    for (const { url } of everyOperation(token)) {
      for (const method of methods) {
        const answer = await send(server.url, method, url);
        assert.equal(answer.status, 405, `${method} ${url}: ${answer.status} ${answer.body}`);
        assert.equal(answer.allow, 'GET, HEAD', `${method} ${url}`);
      }
    }
  });

  it('/rpc: 405 with Allow POST, OPTIONS', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'TRACE']) {
      const answer = await send(server.url, method, rpcPath);
      assert.equal(answer.status, 405, `${method} /rpc`);
      assert.equal(answer.allow, 'POST, OPTIONS');
    }
  });

  it('a path no route serves is 404 whatever the method', async () => {
    for (const method of ['GET', ...methods]) assert.equal((await send(server.url, method, '/nothing/here')).status, 404, method);
  });
});
