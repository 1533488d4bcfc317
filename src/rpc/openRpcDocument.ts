// Loads spec/openrpc.json once: it drives dispatch and param validation, and is what
// rpc.discover returns.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

export const openRpcSpecPath = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'spec', 'openrpc.json');

let loaded: OpenRpcDocument | undefined;

export function openRpcDocument(): OpenRpcDocument {
  loaded ??= JSON.parse(readFileSync(openRpcSpecPath, 'utf8')) as OpenRpcDocument;
  return loaded;
}
