const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export type OperationSummary = { method: string; path: string; operationId?: string; summary?: string };

/** Every operation in an OpenAPI document, in document order; the docs never keep their own list. */
export function listOperations(openapi: { paths?: Record<string, unknown> }): OperationSummary[] {
  return Object.entries(openapi.paths ?? {}).flatMap(([path, item]) =>
    httpMethods.flatMap((method) => {
      const op = (item as Record<string, { operationId?: string; summary?: string } | undefined>)[method];
      return op ? [{ method: method.toUpperCase(), path, operationId: op.operationId, summary: op.summary }] : [];
    }),
  );
}
