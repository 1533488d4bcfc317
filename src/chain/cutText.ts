// Text from the chain is anyone's bytes, cut to a length before it is stored: a cut must not split
// a surrogate pair, since the half left is an unpaired surrogate, which PostgreSQL's jsonb refuses
// (a token's reasons and contract-check findings are jsonb). Decoded UTF-8 has no unpaired ones.

/** The first `max` UTF-16 units of `value`, one less when the last would be the first half of a pair. */
export function cutText(value: string, max: number): string {
  const cut = value.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}
