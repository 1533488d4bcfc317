export type Ref = { $ref: string };

export function isRef(value: unknown): value is Ref {
  return typeof value === 'object' && value !== null && typeof (value as Ref).$ref === 'string';
}

/**
 * Follows local `#/...` references (repeatedly, JSON-pointer escapes decoded) to the node they
 * name. The one resolver of the project's specs: the API's parameter and response validators and
 * the docs pages all read references through it.
 */
export function resolveRef<T>(doc: unknown, value: T | Ref): T {
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

/**
 * A copy of `node` with every local reference replaced by what it names, for validators compiled
 * on their own. The spec's schemas are not recursive; a reference nested deeper than 64 levels
 * is taken for a cycle.
 */
export function inlineRefs(doc: unknown, node: unknown, depth = 0): unknown {
  if (depth > 64) throw new Error('reference nesting deeper than 64: a cycle?');
  const target = resolveRef(doc, node);
  if (Array.isArray(target)) return target.map((n) => inlineRefs(doc, n, depth + 1));
  if (typeof target !== 'object' || target === null) return target;
  return Object.fromEntries(Object.entries(target).map(([k, v]) => [k, inlineRefs(doc, v, depth + 1)]));
}
