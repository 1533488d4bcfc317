// The parts of an OpenRPC 1.x document the renderer reads; everything else is passed over.
import type { Ref } from '../spec/resolveRef.ts';

export { isRef, type Ref } from '../spec/resolveRef.ts';
export type Schema = boolean | Record<string, unknown>;
export type ContentDescriptor = {
  name: string;
  summary?: string;
  description?: string;
  required?: boolean;
  deprecated?: boolean;
  schema: Schema;
};
export type RpcError = { code: number; message: string; data?: unknown };
export type ExamplePairing = {
  name: string;
  summary?: string;
  description?: string;
  params: Array<{ name: string; value: unknown } | Ref>;
  result?: { name: string; value: unknown } | Ref;
};
export type RpcMethod = {
  name: string;
  summary?: string;
  description?: string;
  deprecated?: boolean;
  paramStructure?: 'by-name' | 'by-position' | 'either';
  params: Array<ContentDescriptor | Ref>;
  result?: ContentDescriptor | Ref;
  errors?: Array<RpcError | Ref>;
  examples?: Array<ExamplePairing | Ref>;
};
export type OpenRpcDocument = {
  openrpc: string;
  info: { title: string; version: string; description?: string };
  servers?: Array<{ name?: string; url: string; summary?: string; description?: string }>;
  methods: Array<RpcMethod | Ref>;
  components?: { schemas?: Record<string, Schema>; errors?: Record<string, RpcError> } & Record<string, unknown>;
};
