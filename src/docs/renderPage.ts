import { escapeHtml } from './escapeHtml.ts';

/**
 * The shell of the project's own pages: self-contained HTML and CSS, no scripts, no remote assets.
 * The empty data: icon stops browsers from requesting /favicon.ico.
 */
export function renderPage(input: { title: string; nav?: string; body: string }): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)}</title>
<link rel="icon" href="data:,">
<style>${css}</style>
</head>
<body>
<header><a href="index.html">Overview</a> <a href="rest.html">REST reference</a> <a href="rpc.html">JSON-RPC reference</a></header>
<div class="layout${input.nav ? '' : ' single'}">
${input.nav ? `<nav>${input.nav}</nav>` : ''}
<main>
${input.body}
</main>
</div>
</body>
</html>
`;
}

const css = `
:root{color-scheme:light dark;--fg:#1d2433;--muted:#5a6478;--bg:#fff;--panel:#f4f6fa;--line:#d9dee8;--accent:#2357c6}
@media (prefers-color-scheme:dark){:root{--fg:#e6e9ef;--muted:#a3acbd;--bg:#14171f;--panel:#1d212b;--line:#2e3442;--accent:#7ea6ff}}
*{box-sizing:border-box}
body{margin:0;font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header{display:flex;gap:1.5rem;padding:.75rem 1.5rem;border-bottom:1px solid var(--line);background:var(--panel)}
a{color:var(--accent)}
.layout{display:grid;grid-template-columns:16rem minmax(0,1fr)}
.layout.single{grid-template-columns:minmax(0,1fr)}
nav{padding:1rem 1.5rem;border-right:1px solid var(--line);position:sticky;top:0;align-self:start;max-height:100vh;overflow:auto}
nav ul{list-style:none;padding:0;margin:.25rem 0 1rem}
nav li{margin:.2rem 0;overflow-wrap:anywhere}
main{padding:1rem 2rem 4rem;max-width:64rem}
section{border-top:1px solid var(--line);padding-top:.5rem;margin-top:2rem}
h1{margin-top:.5rem}
h2 code{font-size:1.2em}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
pre{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.75rem;overflow:auto}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{border:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:var(--panel)}
details summary{cursor:pointer;color:var(--muted)}
.summary{font-size:1.05em}
.muted{color:var(--muted)}
.tag{display:inline-block;padding:0 .4rem;border-radius:4px;background:var(--panel);border:1px solid var(--line);font-size:.8em}
@media (max-width:50rem){.layout{grid-template-columns:1fr}nav{position:static;border-right:0;border-bottom:1px solid var(--line)}}
`.trim();
