/** A numeric column's text as JSON prints the number it parses to (`null` if not finite). */
export function jsonNumber(text: string): string {
  const n = Number(text);
  return Number.isFinite(n) ? String(n) : 'null';
}
