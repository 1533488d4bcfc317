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
