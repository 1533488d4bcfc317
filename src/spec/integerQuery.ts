/**
 * The one rule for integer query parameters: plain decimal digits, an optional minus (so "-1"
 * reads as out of range rather than malformed), at most 15 digits (exact as a JS number). Number()
 * alone would take "0x10", "1e1", " 5" and "".
 */
export function isDecimalInteger(raw: string): boolean {
  return /^-?\d{1,15}$/.test(raw);
}
