// Letters of other scripts that look like a Latin letter, from the Unicode confusables data
// (UTS #39, confusables.txt) restricted to pairs whose prototype is one plain Latin letter. Written
// as escapes on purpose: the characters themselves are indistinguishable from Latin in review.
// Digits are not mapped (0/O, 1/l/I): real symbols mix digits and letters legitimately.

/** [look-alike, the Latin letter it passes for] */
const PAIRS: ReadonlyArray<readonly [string, string]> = [
  // Cyrillic
  ['\u{0410}', 'A'], // CYRILLIC CAPITAL LETTER A
  ['\u{0412}', 'B'], // CYRILLIC CAPITAL LETTER VE
  ['\u{0421}', 'C'], // CYRILLIC CAPITAL LETTER ES
  ['\u{0415}', 'E'], // CYRILLIC CAPITAL LETTER IE
  ['\u{050C}', 'G'], // CYRILLIC CAPITAL LETTER KOMI SJE
  ['\u{041D}', 'H'], // CYRILLIC CAPITAL LETTER EN
  ['\u{0406}', 'I'], // CYRILLIC CAPITAL LETTER BYELORUSSIAN-UKRAINIAN I
  ['\u{04C0}', 'I'], // CYRILLIC LETTER PALOCHKA
  ['\u{0408}', 'J'], // CYRILLIC CAPITAL LETTER JE
  ['\u{041A}', 'K'], // CYRILLIC CAPITAL LETTER KA
  ['\u{041C}', 'M'], // CYRILLIC CAPITAL LETTER EM
  ['\u{041E}', 'O'], // CYRILLIC CAPITAL LETTER O
  ['\u{0420}', 'P'], // CYRILLIC CAPITAL LETTER ER
  ['\u{051A}', 'Q'], // CYRILLIC CAPITAL LETTER QA
  ['\u{0405}', 'S'], // CYRILLIC CAPITAL LETTER DZE
  ['\u{0422}', 'T'], // CYRILLIC CAPITAL LETTER TE
  ['\u{051C}', 'W'], // CYRILLIC CAPITAL LETTER WE
  ['\u{0425}', 'X'], // CYRILLIC CAPITAL LETTER HA
  ['\u{0423}', 'Y'], // CYRILLIC CAPITAL LETTER U
  ['\u{04AE}', 'Y'], // CYRILLIC CAPITAL LETTER STRAIGHT U
  ['\u{042C}', 'b'], // CYRILLIC CAPITAL LETTER SOFT SIGN
  ['\u{0430}', 'a'], // CYRILLIC SMALL LETTER A
  ['\u{0441}', 'c'], // CYRILLIC SMALL LETTER ES
  ['\u{0501}', 'd'], // CYRILLIC SMALL LETTER KOMI DE
  ['\u{0435}', 'e'], // CYRILLIC SMALL LETTER IE
  ['\u{04BB}', 'h'], // CYRILLIC SMALL LETTER SHHA
  ['\u{0456}', 'i'], // CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I
  ['\u{04CF}', 'i'], // CYRILLIC SMALL LETTER PALOCHKA
  ['\u{0458}', 'j'], // CYRILLIC SMALL LETTER JE
  ['\u{043A}', 'k'], // CYRILLIC SMALL LETTER KA
  ['\u{043E}', 'o'], // CYRILLIC SMALL LETTER O
  ['\u{0440}', 'p'], // CYRILLIC SMALL LETTER ER
  ['\u{051B}', 'q'], // CYRILLIC SMALL LETTER QA
  ['\u{0455}', 's'], // CYRILLIC SMALL LETTER DZE
  ['\u{0442}', 't'], // CYRILLIC SMALL LETTER TE
  ['\u{051D}', 'w'], // CYRILLIC SMALL LETTER WE
  ['\u{0445}', 'x'], // CYRILLIC SMALL LETTER HA
  ['\u{0443}', 'y'], // CYRILLIC SMALL LETTER U
  ['\u{04AF}', 'y'], // CYRILLIC SMALL LETTER STRAIGHT U
  // Greek
  ['\u{0391}', 'A'], // GREEK CAPITAL LETTER ALPHA
  ['\u{0392}', 'B'], // GREEK CAPITAL LETTER BETA
  ['\u{03F9}', 'C'], // GREEK CAPITAL LUNATE SIGMA SYMBOL
  ['\u{0395}', 'E'], // GREEK CAPITAL LETTER EPSILON
  ['\u{0397}', 'H'], // GREEK CAPITAL LETTER ETA
  ['\u{0399}', 'I'], // GREEK CAPITAL LETTER IOTA
  ['\u{037F}', 'J'], // GREEK CAPITAL LETTER YOT
  ['\u{039A}', 'K'], // GREEK CAPITAL LETTER KAPPA
  ['\u{039C}', 'M'], // GREEK CAPITAL LETTER MU
  ['\u{039D}', 'N'], // GREEK CAPITAL LETTER NU
  ['\u{039F}', 'O'], // GREEK CAPITAL LETTER OMICRON
  ['\u{03A1}', 'P'], // GREEK CAPITAL LETTER RHO
  ['\u{03A4}', 'T'], // GREEK CAPITAL LETTER TAU
  ['\u{03A7}', 'X'], // GREEK CAPITAL LETTER CHI
  ['\u{03A5}', 'Y'], // GREEK CAPITAL LETTER UPSILON
  ['\u{0396}', 'Z'], // GREEK CAPITAL LETTER ZETA
  ['\u{03B1}', 'a'], // GREEK SMALL LETTER ALPHA
  ['\u{03F2}', 'c'], // GREEK LUNATE SIGMA SYMBOL
  ['\u{03B9}', 'i'], // GREEK SMALL LETTER IOTA
  ['\u{03F3}', 'j'], // GREEK LETTER YOT
  ['\u{03BA}', 'k'], // GREEK SMALL LETTER KAPPA
  ['\u{03BF}', 'o'], // GREEK SMALL LETTER OMICRON
  ['\u{03C1}', 'p'], // GREEK SMALL LETTER RHO
  ['\u{03C4}', 't'], // GREEK SMALL LETTER TAU
  ['\u{03C5}', 'u'], // GREEK SMALL LETTER UPSILON
  ['\u{03BD}', 'v'], // GREEK SMALL LETTER NU
  ['\u{03B3}', 'y'], // GREEK SMALL LETTER GAMMA
  // Armenian
  ['\u{0555}', 'O'], // ARMENIAN CAPITAL LETTER OH
  ['\u{054F}', 'S'], // ARMENIAN CAPITAL LETTER TIWN
  ['\u{054D}', 'U'], // ARMENIAN CAPITAL LETTER SEH
  ['\u{0584}', 'f'], // ARMENIAN SMALL LETTER KEH
  ['\u{0581}', 'g'], // ARMENIAN SMALL LETTER CO
  ['\u{0570}', 'h'], // ARMENIAN SMALL LETTER HO
  ['\u{0578}', 'n'], // ARMENIAN SMALL LETTER VO
  ['\u{057C}', 'n'], // ARMENIAN SMALL LETTER RA
  ['\u{0585}', 'o'], // ARMENIAN SMALL LETTER OH
  ['\u{0566}', 'q'], // ARMENIAN SMALL LETTER ZA
  ['\u{0563}', 'q'], // ARMENIAN SMALL LETTER GIM
  ['\u{057D}', 'u'], // ARMENIAN SMALL LETTER SEH
  // Cherokee
  ['\u{13AA}', 'A'], // CHEROKEE LETTER GO
  ['\u{13F4}', 'B'], // CHEROKEE LETTER YV
  ['\u{13DF}', 'C'], // CHEROKEE LETTER TLI
  ['\u{13A0}', 'D'], // CHEROKEE LETTER A
  ['\u{13AC}', 'E'], // CHEROKEE LETTER GV
  ['\u{13C0}', 'G'], // CHEROKEE LETTER NAH
  ['\u{13BB}', 'H'], // CHEROKEE LETTER MI
  ['\u{13AB}', 'J'], // CHEROKEE LETTER GU
  ['\u{13E6}', 'K'], // CHEROKEE LETTER TSO
  ['\u{13DE}', 'L'], // CHEROKEE LETTER TLE
  ['\u{13B7}', 'M'], // CHEROKEE LETTER LU
  ['\u{13E2}', 'P'], // CHEROKEE LETTER TLV
  ['\u{13A1}', 'R'], // CHEROKEE LETTER E
  ['\u{13DA}', 'S'], // CHEROKEE LETTER DU
  ['\u{13A2}', 'T'], // CHEROKEE LETTER I
  ['\u{13D9}', 'V'], // CHEROKEE LETTER DO
  ['\u{13B3}', 'W'], // CHEROKEE LETTER LA
  ['\u{13A9}', 'Y'], // CHEROKEE LETTER GI
  ['\u{13C3}', 'Z'], // CHEROKEE LETTER NO
  // Lisu
  ['\u{A4EE}', 'A'], // LISU LETTER A
  ['\u{A4D0}', 'B'], // LISU LETTER BA
  ['\u{A4DA}', 'C'], // LISU LETTER CA
  ['\u{A4D3}', 'D'], // LISU LETTER DA
  ['\u{A4F0}', 'E'], // LISU LETTER E
  ['\u{A4DD}', 'F'], // LISU LETTER TSA
  ['\u{A4D6}', 'G'], // LISU LETTER GA
  ['\u{A4E7}', 'H'], // LISU LETTER XA
  ['\u{A4F2}', 'I'], // LISU LETTER I
  ['\u{A4D9}', 'J'], // LISU LETTER JA
  ['\u{A4D7}', 'K'], // LISU LETTER KA
  ['\u{A4E1}', 'L'], // LISU LETTER LA
  ['\u{A4DF}', 'M'], // LISU LETTER MA
  ['\u{A4E0}', 'N'], // LISU LETTER NA
  ['\u{A4F3}', 'O'], // LISU LETTER O
  ['\u{A4D1}', 'P'], // LISU LETTER PA
  ['\u{A4E3}', 'R'], // LISU LETTER ZHA
  ['\u{A4E2}', 'S'], // LISU LETTER SA
  ['\u{A4D4}', 'T'], // LISU LETTER TA
  ['\u{A4F4}', 'U'], // LISU LETTER U
  ['\u{A4E6}', 'V'], // LISU LETTER HA
  ['\u{A4EA}', 'W'], // LISU LETTER WA
  ['\u{A4EB}', 'X'], // LISU LETTER SHA
  ['\u{A4EC}', 'Y'], // LISU LETTER YA
  ['\u{A4DC}', 'Z'], // LISU LETTER DZA
  // Coptic
  ['\u{2CA4}', 'C'], // COPTIC CAPITAL LETTER SIMA
  ['\u{2C8E}', 'H'], // COPTIC CAPITAL LETTER HATE
  ['\u{2C92}', 'I'], // COPTIC CAPITAL LETTER IAUDA
  ['\u{2C94}', 'K'], // COPTIC CAPITAL LETTER KAPA
  ['\u{2C98}', 'M'], // COPTIC CAPITAL LETTER MI
  ['\u{2C9A}', 'N'], // COPTIC CAPITAL LETTER NI
  ['\u{2C9E}', 'O'], // COPTIC CAPITAL LETTER O
  ['\u{2CA2}', 'P'], // COPTIC CAPITAL LETTER RO
  ['\u{2CA6}', 'T'], // COPTIC CAPITAL LETTER TAU
  ['\u{2CAC}', 'X'], // COPTIC CAPITAL LETTER KHI
  ['\u{2CA8}', 'Y'], // COPTIC CAPITAL LETTER UA
  ['\u{2CA5}', 'c'], // COPTIC SMALL LETTER SIMA
  ['\u{2C95}', 'k'], // COPTIC SMALL LETTER KAPA
  ['\u{2C9F}', 'o'], // COPTIC SMALL LETTER O
  ['\u{2CA3}', 'p'], // COPTIC SMALL LETTER RO
];

export const LOOK_ALIKES: ReadonlyMap<string, string> = new Map(PAIRS);

const SCRIPTS: ReadonlyArray<readonly [string, RegExp]> = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
  ['Lisu', /\p{Script=Lisu}/u],
  ['Coptic', /\p{Script=Coptic}/u],
];

/** The script of one character among those the look-alike table covers, else "another script". */
export function scriptOf(char: string): string {
  for (const [name, test] of SCRIPTS) if (test.test(char)) return name;
  return 'another script';
}

const ASCII_LETTER = /^[A-Za-z]$/;
// Compatibility forms drawn like a plain letter in another style: fullwidth forms, letterlike
// symbols (Kelvin sign, double-struck C) and mathematical alphanumerics. Superscripts, ordinals
// (º) and circled letters are left out: they do not pass for a letter of the running text.
const STYLED_FORMS = /^[\uFF00-\uFFEF\u2100-\u214F\u{1D400}-\u{1D7FF}]$/u;

/**
 * The plain Latin letter a non-ASCII character passes for, if any: a listed look-alike of another
 * script (Cyrillic "\u0421" for "C"), or a styled form whose NFKC normalisation is one ASCII
 * letter or such a look-alike (fullwidth "\uFF23", mathematical bold "\u{1D402}").
 */
export function latinLookAlike(char: string): string | undefined {
  const direct = LOOK_ALIKES.get(char);
  if (direct !== undefined) return direct;
  if (!STYLED_FORMS.test(char)) return undefined;
  const compatible = char.normalize('NFKC');
  return ASCII_LETTER.test(compatible) ? compatible : LOOK_ALIKES.get(compatible);
}
