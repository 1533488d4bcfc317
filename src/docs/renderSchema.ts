import { escapeHtml } from './escapeHtml.ts';
import type { Schema } from './openrpcTypes.ts';

const componentRef = /^#\/components\/schemas\/(.+)$/;

/** A one-line type of a JSON Schema with links to named components, then the whole schema on demand. */
export function renderSchema(schema: Schema): string {
  return `<span class="type">${schemaType(schema)}</span>
<details><summary>JSON Schema</summary><pre>${schemaJson(schema)}</pre></details>`;
}

/** Pretty JSON, escaped, with every component reference turned into a link to its anchor. */
export function schemaJson(value: unknown): string {
  return escapeHtml(JSON.stringify(value, null, 2)).replace(
    /&quot;#\/components\/schemas\/([^&]+)&quot;/g,
    (_, name: string) => `<a href="#schema-${name}">&quot;#/components/schemas/${name}&quot;</a>`,
  );
}

function schemaType(schema: Schema, depth = 0): string {
  if (schema === true) return 'any';
  if (schema === false) return 'nothing';
  if (depth > 3) return '…';
  const ref = typeof schema.$ref === 'string' ? componentRef.exec(schema.$ref) : null;
  if (ref?.[1]) return `<a href="#schema-${escapeHtml(ref[1])}">${escapeHtml(ref[1])}</a>`;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return options.map((o: Schema) => schemaType(o, depth + 1)).join(' | ');
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map((o: Schema) => schemaType(o, depth + 1)).join(' &amp; ');
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => `<code>${escapeHtml(JSON.stringify(v))}</code>`).join(' | ');
  if ('const' in schema) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`;
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : typeof schema.type === 'string' ? schema.type : '';
  if (type === 'array' && typeof schema.items === 'object' && schema.items !== null) {
    return `array of ${schemaType(schema.items as Schema, depth + 1)}`;
  }
  const title = typeof schema.title === 'string' ? ` (${escapeHtml(schema.title)})` : '';
  const pattern = typeof schema.pattern === 'string' ? ` matching <code>${escapeHtml(schema.pattern)}</code>` : '';
  return `${escapeHtml(type || 'object')}${title}${pattern}`;
}
