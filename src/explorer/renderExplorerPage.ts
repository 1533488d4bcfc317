import { EXPLORER_SCRIPT_PATH, EXPLORER_STYLE_PATH } from './explorerPaths.ts';

const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The page's HTML: a shell the script fills, with the space of every view reserved by the style
 * sheet (no layout shift while data loads). `networkToken` is the address the supply endpoints
 * serve, given to the page in a meta tag (it has no API of its own); absent, the network view
 * says so. `rateLimit` is the API's per-IP limits (requests per second/per minute), which the
 * page's requests are paced to fit. `version` keys the asset URLs so that a new build is fetched, not a cached one.
 */
export function renderExplorerPage(options: { networkToken?: string; version: string; rateLimit?: { perSecond: number; perMinute: number } }): string {
  const limit = options.rateLimit ?? { perSecond: 2, perMinute: 60 };
  const v = encodeURIComponent(options.version);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="explorer:network-token" content="${escapeAttribute(options.networkToken ?? '')}">
<meta name="explorer:rate-limit" content="${limit.perSecond}/${limit.perMinute}">
<title>Token explorer</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${EXPLORER_STYLE_PATH}?v=${v}">
<script type="module" src="${EXPLORER_SCRIPT_PATH}?v=${v}"></script>
</head>
<body>
<header class="top">
  <a class="brand" href="#/">Token explorer</a>
  <nav aria-label="Views"><a href="#/">Tokens</a> <a href="#/network">Network token</a> <a href="/docs/">API docs</a></nav>
</header>
<section class="tx" aria-labelledby="tx-title">
  <h2 id="tx-title">Transaction lookup</h2>
  <form id="tx-form" class="tx-form">
    <label>Hash <input id="tx-hash" name="hash" placeholder="0x… (64 hex digits)" autocomplete="off" spellcheck="false"></label>
    <span class="tx-or">or</span>
    <label>Block <input id="tx-block" name="block" placeholder="latest or number" autocomplete="off"></label>
    <label>Index <input id="tx-index" name="index" placeholder="0" inputmode="numeric" autocomplete="off"></label>
    <button type="submit">Look up</button>
  </form>
  <div id="tx-result" class="tx-result" aria-live="polite"></div>
</section>
<main id="view" aria-live="polite"><p class="loading">Loading…</p></main>
<footer class="foot">Data from this service's API. Charts by <a href="https://www.tradingview.com/lightweight-charts/" rel="noopener">TradingView Lightweight Charts™</a>.</footer>
</body>
</html>
`;
}
