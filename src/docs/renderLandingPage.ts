import { escapeHtml } from './escapeHtml.ts';
import { listOperations } from './listOperations.ts';
import type { OpenRpcDocument, RpcMethod } from './openrpcTypes.ts';
import { renderMarkdown } from './renderMarkdown.ts';
import { renderPage } from './renderPage.ts';
import { resolveRef } from '../spec/resolveRef.ts';

type OpenApiInfo = { info: { title: string; version: string; summary?: string; description?: string }; paths?: Record<string, unknown> };

/** The entry page: what the service is, then every REST operation and RPC method linked to its reference. */
export function renderLandingPage(input: { openapi: OpenApiInfo; openrpc: OpenRpcDocument }): string {
  const { openapi, openrpc } = input;
  const operations = listOperations(openapi);
  const methods = openrpc.methods.map((m) => resolveRef<RpcMethod>(openrpc, m));
  const body = `<h1>${escapeHtml(openapi.info.title)}</h1>
${openapi.info.summary ? `<p class="summary">${escapeHtml(openapi.info.summary)}</p>` : ''}
${openapi.info.description ? renderMarkdown(openapi.info.description) : ''}
<section><h2>REST API <span class="muted">v${escapeHtml(openapi.info.version)}</span></h2>
<p><a href="rest.html">REST reference</a> · <a href="openapi.yaml">openapi.yaml</a> · <a href="openapi.json">openapi.json</a></p>
<table><tr><th>Method</th><th>Path</th><th>Operation</th><th>Summary</th></tr>${operations
    .map((o) => `<tr><td>${o.method}</td><td><code>${escapeHtml(o.path)}</code></td><td><code>${escapeHtml(o.operationId ?? '')}</code></td><td>${escapeHtml(o.summary ?? '')}</td></tr>`)
    .join('')}</table></section>
<section><h2>JSON-RPC <span class="muted">v${escapeHtml(openrpc.info.version)}</span></h2>
<p><a href="rpc.html">JSON-RPC reference</a> · <a href="openrpc.json">openrpc.json</a> · <code>POST /rpc</code></p>
<table><tr><th>Method</th><th>Summary</th></tr>${methods
    .map((m) => `<tr><td><a href="rpc.html#method-${escapeHtml(m.name)}"><code>${escapeHtml(m.name)}</code></a></td><td>${escapeHtml(m.summary ?? '')}</td></tr>`)
    .join('')}</table></section>
<section><h2>Machine-readable documents</h2><ul>
<li><a href="openapi.yaml">openapi.yaml</a> — OpenAPI ${escapeHtml(String((openapi as { openapi?: string }).openapi ?? ''))}, also at <code>/openapi.yaml</code></li>
<li><a href="openapi.json">openapi.json</a> — the same document as JSON, also at <code>/openapi.json</code></li>
<li><a href="openrpc.json">openrpc.json</a> — OpenRPC ${escapeHtml(openrpc.openrpc)}, also at <code>/openrpc.json</code> and from the <code>rpc.discover</code> method</li>
</ul></section>`;
  return renderPage({ title: `${openapi.info.title} — documentation`, body });
}
