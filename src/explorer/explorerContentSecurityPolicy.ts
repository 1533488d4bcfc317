/**
 * The explorer's Content-Security-Policy: scripts and styles only from this server's files (no
 * inline code, no eval), API calls only to this origin, images from here or from the logo URLs
 * the token list gives (http/https: a list's logos live elsewhere; the demo's are served here).
 */
export const EXPLORER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https: http:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
