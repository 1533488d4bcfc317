// Characters that draw nothing: a token name or symbol carrying one hides what it really is
// (a padded "USDC" that is not "USDC", text reordered by bidi controls, a blank-looking name).
// Joiners and variation selectors are text where they shape something: inside an emoji sequence,
// between letters of a script that uses joiners, or once after an emoji or ideograph.

/** Always invisible: soft hyphen, combining grapheme joiner, Arabic letter mark, Hangul fillers,
 *  Khmer inherent vowels, Mongolian vowel separator, zero-width space, LRM/RLM, bidi embeddings,
 *  overrides and isolates, word joiner and invisible operators, deprecated format controls,
 *  braille blank, BOM/zero-width no-break space, interlinear annotation, musical format controls. */
const ALWAYS = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u2800\u3164\uFEFF\uFFA0\uFFF9-\uFFFB\u{1D173}-\u{1D17A}]/u;
const ZWNJ = '\u200C';
const ZWJ = '\u200D';
const VARIATION_SELECTOR = /[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/u;
const TAG = /[\u{E0000}-\u{E007F}]/u;
const BLACK_FLAG = '\u{1F3F4}';

const EMOJI_BEFORE_JOINER = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]/u;
const EMOJI = /\p{Extended_Pictographic}/u;
const VARIATION_BASE = /[\p{Emoji}\p{Script=Han}]/u;
// Scripts written without joiners: a joiner between their letters only hides a split.
const NO_JOINER_SCRIPT = /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}]/u;
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;

const joinsLetters = (before: string | undefined, after: string | undefined): boolean =>
  before !== undefined && after !== undefined && LETTER_OR_MARK.test(before) && LETTER_OR_MARK.test(after)
  && !NO_JOINER_SCRIPT.test(before) && !NO_JOINER_SCRIPT.test(after);

/** The invisible characters of `text` that do not belong to an emoji or a joining script, in order. */
export function invisibleCharacters(text: string): string[] {
  const chars = Array.from(text);
  const found: string[] = [];
  let flagTags = false;
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    const before = chars[i - 1];
    const after = chars[i + 1];
    if (TAG.test(char)) {
      // A tag sequence spells a subdivision flag after the black flag (England, Scotland, Wales).
      if (!flagTags) found.push(char);
      continue;
    }
    flagTags = char === BLACK_FLAG;
    if (ALWAYS.test(char)) found.push(char);
    else if (char === ZWJ) {
      const inEmoji = before !== undefined && after !== undefined && EMOJI_BEFORE_JOINER.test(before) && EMOJI.test(after);
      if (!inEmoji && !joinsLetters(before, after)) found.push(char);
    } else if (char === ZWNJ) {
      if (!joinsLetters(before, after)) found.push(char);
    } else if (VARIATION_SELECTOR.test(char)) {
      if (before === undefined || !VARIATION_BASE.test(before)) found.push(char);
    }
  }
  return found;
}

const EVERY_INVISIBLE = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u2800\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB\u{1D173}-\u{1D17A}\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu;

/** `text` without any of the characters above, allowed or not: what a reader sees, for matching. */
export function withoutInvisible(text: string): string {
  return text.replace(EVERY_INVISIBLE, '');
}
