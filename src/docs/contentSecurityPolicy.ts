import { createHash } from 'node:crypto';

/**
 * The Content-Security-Policy for one docs page: only the page's own inline scripts
 * (by SHA-256 hash, so no 'unsafe-inline' for scripts), inline styles (Redoc injects them
 * at run time), data: images and fonts, nothing remote.
 */
export function contentSecurityPolicy(html: string): string {
  const hashes = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)]
    .filter((m) => !/\bsrc\s*=/i.test(m[0].slice(0, m[0].indexOf('>'))))
    .map((m) => `'sha256-${createHash('sha256').update(m[1] ?? '').digest('base64')}'`);
  return [
    "default-src 'none'",
    `script-src ${hashes.length ? [...new Set(hashes)].join(' ') : "'none'"}`,
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}
