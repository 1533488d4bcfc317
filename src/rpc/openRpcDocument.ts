// Loads spec/openrpc.json once: it drives dispatch and param validation, and is what
// rpc.discover returns.
import { readFileSync } from 'node:fs';
import { openrpcSpecPath } from '../spec/specPaths.ts';

export interface OpenRpcParam {
  name: string;
  description?: string;
  required?: boolean;
  schema: Record<string, unknown>;
}

export interface OpenRpcMethod {
  name: string;
  params: OpenRpcParam[];
  result: { name: string; schema: Record<string, unknown> };
}

export interface OpenRpcDocument {
  openrpc: string;
  methods: OpenRpcMethod[];
  components: { schemas: Record<string, Record<string, unknown>>; errors?: Record<string, unknown> };
  [key: string]: unknown;
}


let loaded: OpenRpcDocument | undefined;

export function openRpcDocument(): OpenRpcDocument {
  loaded ??= JSON.parse(readFileSync(openrpcSpecPath, 'utf8')) as OpenRpcDocument;
  return loaded;
}
