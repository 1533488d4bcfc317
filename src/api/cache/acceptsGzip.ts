/** True when an Accept-Encoding header accepts gzip (explicitly or through `*`), q=0 meaning no. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star: boolean | undefined;
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (coding === 'gzip') return accepted;
    if (coding === '*') star = accepted;
  }
  return star ?? false;
}
