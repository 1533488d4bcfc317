// The form in which two token symbols are the same symbol to a reader: invisible characters and
// white space removed, compatibility forms folded (NFKC: fullwidth, mathematical styles), letters
// of other scripts that pass for Latin ones replaced by them, then lower-cased.
import { withoutInvisible } from './invisibleCharacters.ts';
import { LOOK_ALIKES } from './lookAlikes.ts';

const asLatin = (text: string): string => Array.from(text, (c) => LOOK_ALIKES.get(c) ?? c).join('');

export function normaliseSymbol(symbol: string): string {
  // Look-alikes are replaced before and after NFKC: it maps some styled letters to Greek ones.
  return asLatin(asLatin(withoutInvisible(symbol)).normalize('NFKC')).replace(/\s+/gu, '').toLowerCase();
}
