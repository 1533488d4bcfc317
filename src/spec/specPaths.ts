import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const openapiSpecPath = join(root, 'spec', 'openapi.yaml');
export const openrpcSpecPath = join(root, 'spec', 'openrpc.json');
