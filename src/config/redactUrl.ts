// What of a configured URL may be shown in a log line, a banner or an answer: scheme, host and
// port. Credentials (user:password@), paths and queries often carry API keys, so they never are.
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}`;
  } catch {
    return '(unparsable URL)';
  }
}

/** True for a URL that is http(s) (a token-list source may also be a file path). */
const isUrl = (raw: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(raw);

/**
 * A path segment or query value that may be a key: 8 or more characters of letters, digits and
 * `-_.~=+/` mixing letters and digits, or 20 or more of them whatever they are (`/v3/<key>`,
 * `?apikey=…`). Words such as `rpc`, `v3` or `mainnet` are not.
 */
function keyLike(value: string): boolean {
  if (value.length >= 20) return true;
  return value.length >= 8 && /[a-z]/i.test(value) && /\d/.test(value);
}

/**
 * The parts of a configured URL that must never be printed: its user name and password, its
 * key-like path segments and query values, each as written and percent-decoded, and the URL
 * itself in its forms (given, normalised, without userinfo).
 */
export function urlSecrets(raw: string): string[] {
  if (!isUrl(raw)) return [];
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return [raw];
  }
  const found = new Set<string>();
  const add = (value: string) => {
    if (!value) return;
    found.add(value);
    try {
      found.add(decodeURIComponent(value));
    } catch {
      // not percent-encoded text: the raw form is enough
    }
  };
  // A user name is a credential too (some providers put the key there); very short ones would
  // match ordinary words of a log line, and say nothing alone.
  if (url.username.length >= 4 || !url.password) add(url.username);
  add(url.password);
  for (const segment of url.pathname.split('/')) if (keyLike(segment)) add(segment);
  for (const [name, value] of url.searchParams) {
    if (keyLike(value) || /key|token|secret|pass|auth|sig/i.test(name)) add(value);
  }
  if (found.size === 0) return [];
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  for (const whole of [raw, url.href, bare.href]) found.add(whole);
  // Longest first, so a URL is replaced whole before its parts are.
  return [...found].filter((s) => s.length >= 3).sort((a, b) => b.length - a.length);
}

/**
 * A function that replaces every secret of `urls` (urlSecrets) in a text with `***`: applied to
 * every log line and to the message of an error that ends the process, so that a driver's or
 * library's error text that quotes a URL cannot carry its credentials out.
 */
export function createSecretScrubber(urls: readonly (string | undefined)[]): (text: string) => string {
  const secrets = [...new Set(urls.flatMap((u) => (u ? urlSecrets(u) : [])))].sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return (text) => text;
  // JSON log lines escape `"` and `\`: the secrets are looked for as JSON writes them too.
  const forms = [...new Set(secrets.flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]))].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(forms.map((s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'g');
  return (text) => text.replace(pattern, '***');
}
