import type { FieldIssue } from '../errors/index.ts';

type ValidatorItem = { path?: string; message?: string };

/**
 * Turns express-openapi-validator errors ("/query/addresses/3", "must match pattern ...")
 * into issues that name the field and where it was sent.
 */
export function validationIssues(items: readonly ValidatorItem[] | undefined, fallback: string): FieldIssue[] {
  if (!items || items.length === 0) return [{ field: 'request', in: 'query', message: fallback }];
  return items.map((item) => {
    const parts = (item.path ?? '').replace(/^\./, '/').split(/[/.]/).filter(Boolean);
    const location = parts[0];
    if (!['query', 'params', 'path', 'headers', 'body'].includes(location ?? '')) {
      // not a parameter: the URL itself could not be decoded
      return { field: 'url', in: 'path', message: 'is not a well-formed URL (bad percent-encoding?)' };
    }
    const where: FieldIssue['in'] =
      location === 'params' || location === 'path' ? 'path' : location === 'headers' ? 'header' : location === 'body' ? 'body' : 'query';
    const field = parts[1] ?? parts[0] ?? 'request';
    const index = parts[2];
    const message = (item.message ?? 'is invalid').replace(/"/g, "'");
    return { field, in: where, message: index !== undefined ? `item ${index}: ${message}` : message };
  });
}
