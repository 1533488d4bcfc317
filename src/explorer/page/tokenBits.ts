// Pieces shown wherever a token is: its logo (a fixed-size box, so nothing moves when it loads)
// and its flags with their reasons on hover and focus (title and aria-label).
import type { Token } from '../../client/index.ts';
import { h } from './dom.ts';

export function tokenLogo(token: Pick<Token, 'logo' | 'symbol'>, size = 20): HTMLElement {
  if (token.logo) return h('img', { class: 'logo', src: token.logo, alt: '', width: size, height: size, loading: 'lazy', decoding: 'async' });
  return h('span', { class: 'logo logo-none', 'aria-hidden': 'true' }, (token.symbol || '?').slice(0, 1));
}

const reasonsText = (reasons: { detail: string; impact?: number }[]) =>
  reasons.map((r) => (r.impact === undefined ? r.detail : `${r.impact > 0 ? '+' : ''}${r.impact} ${r.detail}`)).join('\n');

/** The score, the secure flag and the spam flag, each with its reasons on hover. */
export function flagBadges(token: Token): HTMLElement {
  const security = reasonsText(token.security.reasons);
  const spam = reasonsText(token.spamReasons);
  return h(
    'span',
    { class: 'flags' },
    h('span', { class: 'badge score', tabindex: 0, title: security, 'aria-label': `Security score ${token.security.score}: ${security}` }, String(token.security.score)),
    token.isSecure ? h('span', { class: 'badge secure', tabindex: 0, title: security, 'aria-label': `Secure: ${security}` }, 'secure') : null,
    token.isPossibleSpam ? h('span', { class: 'badge spam', tabindex: 0, title: spam, 'aria-label': `Possible spam: ${spam}` }, 'spam?') : null,
  );
}
