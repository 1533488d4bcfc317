import { escapeHtml } from './escapeHtml.ts';
import type { ContentDescriptor, ExamplePairing, OpenRpcDocument, RpcError, RpcMethod } from './openrpcTypes.ts';
import { renderMarkdown } from './renderMarkdown.ts';
import { renderPage } from './renderPage.ts';
import { renderSchema, schemaJson } from './renderSchema.ts';
import { resolveRef } from '../spec/resolveRef.ts';

/** The JSON-RPC reference page, rendered from the OpenRPC document alone (methods in document order). */
export function renderRpcPage(doc: OpenRpcDocument): string {
  const methods = doc.methods.map((m) => resolveRef<RpcMethod>(doc, m));
  const schemas = Object.entries(doc.components?.schemas ?? {});
  const errors = Object.entries(doc.components?.errors ?? {});
  const nav = `<strong>Methods</strong><ul>${methods
    .map((m) => `<li><a href="#method-${escapeHtml(m.name)}"><code>${escapeHtml(m.name)}</code></a></li>`)
    .join('')}</ul>
${errors.length ? '<strong><a href="#errors">Errors</a></strong><br>' : ''}${schemas.length ? '<strong><a href="#schemas">Schemas</a></strong>' : ''}`;
  const body = `<h1>${escapeHtml(doc.info.title)}</h1>
<p class="muted">Version ${escapeHtml(doc.info.version)} · OpenRPC ${escapeHtml(doc.openrpc)} · <a href="openrpc.json">openrpc.json</a></p>
${doc.info.description ? renderMarkdown(doc.info.description) : ''}
${renderServers(doc)}
${methods.map((m) => renderMethod(doc, m)).join('\n')}
${errors.length ? renderErrorComponents(errors) : ''}
${schemas.length ? `<section id="schemas"><h2>Schemas</h2>${schemas
    .map(([name, schema]) => `<h3 id="schema-${escapeHtml(name)}">${escapeHtml(name)}</h3><pre>${schemaJson(schema)}</pre>`)
    .join('\n')}</section>` : ''}`;
  return renderPage({ title: `${doc.info.title} — JSON-RPC reference`, nav, body });
}

function renderServers(doc: OpenRpcDocument): string {
  if (!doc.servers?.length) return '';
  const rows = doc.servers
    .map((s) => `<tr><td><code>${escapeHtml(s.url)}</code></td><td>${escapeHtml(s.name ?? '')}</td><td>${escapeHtml(s.summary ?? s.description ?? '')}</td></tr>`)
    .join('');
  return `<h2>Servers</h2><table><tr><th>URL</th><th>Name</th><th>Description</th></tr>${rows}</table>`;
}

function renderMethod(doc: OpenRpcDocument, method: RpcMethod): string {
  const params = method.params.map((p) => resolveRef<ContentDescriptor>(doc, p));
  const result = method.result ? resolveRef<ContentDescriptor>(doc, method.result) : undefined;
  const errors = (method.errors ?? []).map((e) => resolveRef<RpcError>(doc, e));
  const examples = (method.examples ?? []).map((e) => resolveRef<ExamplePairing>(doc, e));
  const structure = method.paramStructure ?? 'either';
  return `<section id="method-${escapeHtml(method.name)}">
<h2><code>${escapeHtml(method.name)}</code>${method.deprecated ? ' <span class="tag">deprecated</span>' : ''}</h2>
${method.summary ? `<p class="summary">${escapeHtml(method.summary)}</p>` : ''}
${method.description ? renderMarkdown(method.description) : ''}
<h3>Parameters</h3>
${params.length === 0 ? '<p>None: send <code>[]</code> or omit <code>params</code>.</p>' : `<p class="muted">Given ${escapeHtml(structure)}.</p>
<table><tr><th>#</th><th>Name</th><th>Required</th><th>Schema</th><th>Description</th></tr>${params
    .map((p, i) => `<tr><td>${i}</td><td><code>${escapeHtml(p.name)}</code></td><td>${p.required ? 'yes' : 'no'}</td><td>${renderSchema(p.schema)}</td><td>${escapeHtml(p.description ?? p.summary ?? '')}</td></tr>`)
    .join('')}</table>`}
<h3>Result</h3>
${result ? `<p><code>${escapeHtml(result.name)}</code>${result.description ? ` — ${escapeHtml(result.description)}` : ''}</p>${renderSchema(result.schema)}` : '<p>None (notification).</p>'}
${errors.length ? `<h3>Errors</h3>${errorTable(errors)}` : ''}
${examples.length ? `<h3>Examples</h3>${examples.map((e) => renderExample(doc, method, structure, e)).join('\n')}` : ''}
</section>`;
}

function renderExample(doc: OpenRpcDocument, method: RpcMethod, structure: string, example: ExamplePairing): string {
  const values = example.params.map((p) => resolveRef<{ name: string; value: unknown }>(doc, p));
  const params = structure === 'by-name' ? Object.fromEntries(values.map((v) => [v.name, v.value])) : values.map((v) => v.value);
  const request = { jsonrpc: '2.0', id: 1, method: method.name, params };
  const result = example.result ? resolveRef<{ name: string; value: unknown }>(doc, example.result) : undefined;
  const response = result ? { jsonrpc: '2.0', id: 1, result: result.value } : undefined;
  return `<h4>${escapeHtml(example.name)}</h4>
${example.summary || example.description ? `<p>${escapeHtml(example.summary ?? example.description ?? '')}</p>` : ''}
<p class="muted">Request</p><pre>${escapeHtml(JSON.stringify(request, null, 2))}</pre>
${response ? `<p class="muted">Response</p><pre>${escapeHtml(JSON.stringify(response, null, 2))}</pre>` : ''}`;
}

function errorTable(errors: RpcError[]): string {
  return `<table><tr><th>Code</th><th>Message</th><th>Data</th></tr>${errors
    .map((e) => `<tr><td><code>${e.code}</code></td><td>${escapeHtml(e.message)}</td><td>${e.data === undefined ? '' : `<code>${escapeHtml(JSON.stringify(e.data))}</code>`}</td></tr>`)
    .join('')}</table>`;
}

function renderErrorComponents(errors: Array<[string, RpcError]>): string {
  return `<section id="errors"><h2>Errors</h2>
<p>Every error is a JSON-RPC 2.0 error object <code>{"code", "message", "data"?}</code>.</p>
<table><tr><th>Name</th><th>Code</th><th>Message</th><th>Data</th></tr>${errors
    .map(([name, e]) => `<tr id="error-${escapeHtml(name)}"><td>${escapeHtml(name)}</td><td><code>${e.code}</code></td><td>${escapeHtml(e.message)}</td><td>${e.data === undefined ? '' : `<code>${escapeHtml(JSON.stringify(e.data))}</code>`}</td></tr>`)
    .join('')}</table></section>`;
}
