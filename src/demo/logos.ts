// Deterministic logo badges for the demo's token list (the demo has no internet): a coloured
// circle, its hue derived from the symbol, with the symbol's first letters.
import { createHash } from 'node:crypto';

/** Symbols that can appear in a logo path: what a URL path segment carries without escaping. */
export const LOGO_SYMBOL = /^[A-Za-z0-9._-]{1,20}$/;

const escapeXml = (s: string) =>
  s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] as string);

export function logoSvg(symbol: string): string {
  const digest = createHash('sha256').update(symbol).digest();
  const hue = digest.readUInt16BE(0) % 360;
  const letters = escapeXml(symbol.replace(/[^A-Za-z0-9]/g, '').slice(0, 4).toUpperCase() || '?');
  const size = [28, 28, 28, 22, 17][letters.length];
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img">',
    `<title>${escapeXml(symbol)}</title>`,
    `<circle cx="32" cy="32" r="32" fill="hsl(${hue} 62% 42%)"/>`,
    `<circle cx="32" cy="32" r="28" fill="none" stroke="hsl(${hue} 70% 70%)" stroke-width="2"/>`,
    `<text x="32" y="32" dy="0.35em" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" font-weight="700" font-size="${size}" fill="#fff">${letters}</text>`,
    '</svg>\n',
  ].join('');
}
