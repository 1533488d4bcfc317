const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Operation = { operationId?: string; description?: string };

/**
 * A copy of an OpenAPI document whose operation descriptions start with the operationId:
 * Redoc does not display operationIds, yet SDK method names and client calls are keyed by them.
 */
export function withOperationIds<T extends { paths?: Record<string, unknown> }>(openapi: T): T {
  const copy = structuredClone(openapi);
  for (const item of Object.values(copy.paths ?? {})) {
    for (const method of httpMethods) {
      const op = (item as Record<string, Operation | undefined>)[method];
      if (!op?.operationId) continue;
      const line = `Operation ID: \`${op.operationId}\``;
      op.description = op.description ? `${line}\n\n${op.description}` : line;
    }
  }
  return copy;
}
