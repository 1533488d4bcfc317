// What the docs must show, read from the specs at test time (never a hand-kept list).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { defaultSpecDir } from '../../src/docs/docsPaths.ts';
import { listOperations } from '../../src/docs/listOperations.ts';
import type { OpenRpcDocument, RpcMethod } from '../../src/docs/openrpcTypes.ts';
import { resolveRef } from '../../src/spec/resolveRef.ts';

export function specFacts(specDir = defaultSpecDir) {
  const openapi = parse(readFileSync(join(specDir, 'openapi.yaml'), 'utf8')) as { paths: Record<string, unknown> };
  const openrpc = JSON.parse(readFileSync(join(specDir, 'openrpc.json'), 'utf8')) as OpenRpcDocument;
  const operationIds = listOperations(openapi).map((o) => {
    if (!o.operationId) throw new Error(`${o.method} ${o.path} has no operationId`);
    return o.operationId;
  });
  const methods = openrpc.methods.map((m) => resolveRef<RpcMethod>(openrpc, m));
  return { openapi, openrpc, operationIds, methods, methodNames: methods.map((m) => m.name) };
}
