// Homoglyphs: one word written in Latin letters with a letter of another script (or a styled
// compatibility form) that passes for a Latin one, like Cyrillic "\u0421" in "USD\u0421". A word
// wholly in another script, or a mixed word whose foreign letters look like no Latin letter
// ("\u0394ETH", "\u03BCUSD"), is not a homoglyph: nothing is disguised.
import { LOOK_ALIKES, latinLookAlike, scriptOf } from './lookAlikes.ts';

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const LATIN_LETTER = /[A-Za-z]|(?=\p{L})\p{Script=Latin}/u;

/** `script` names the foreign letter's script, or is null for a styled form (fullwidth, mathematical). */
export type Homoglyph = { word: string; char: string; looksLike: string; script: string | null };

/** The first homoglyph of `text` (invisible characters already removed); null when none. */
export function findHomoglyph(text: string): Homoglyph | null {
  for (const [word] of text.matchAll(WORD)) {
    const chars = Array.from(word);
    const plain = chars.filter((c) => LATIN_LETTER.test(c) && latinLookAlike(c) === undefined);
    if (plain.length === 0) continue;
    for (const char of chars) {
      const looksLike = latinLookAlike(char);
      if (looksLike !== undefined) return { word, char, looksLike, script: LOOK_ALIKES.has(char) ? scriptOf(char) : null };
    }
  }
  return null;
}
