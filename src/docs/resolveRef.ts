import { isRef } from './openrpcTypes.ts';

/** Follows local `#/...` references (repeatedly) so methods may use shared components. */
export function resolveRef<T>(doc: unknown, value: T | { $ref: string }): T {
  let current: unknown = value;
  for (let hops = 0; isRef(current); hops++) {
    if (hops > 32) throw new Error(`reference cycle at ${current.$ref}`);
    const ref = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`only local references are supported: ${ref}`);
    current = ref
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>((node, key) => {
        if (typeof node !== 'object' || node === null || !(key in node)) throw new Error(`unresolved reference ${ref}`);
        return (node as Record<string, unknown>)[key];
      }, doc);
  }
  return current as T;
}
