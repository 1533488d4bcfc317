import { createHash } from 'node:crypto';
import { jsonObjectPieces, type Json, type JsonBytes, type TaggedJson } from '../json.ts';
import type { TokenPage } from '../types.ts';
import type { SlabItem } from './createTextSlab.ts';

/**
 * A token as a page reads it: its slot in the slab, and the first 64 bits of its JSON's SHA-1
 * (two int32s, kept inline on the entry), from which pages make their ETags.
 */
export type PageEntry = SlabItem & { digestHigh: number; digestLow: number };

/**
 * How a page reads its tokens' JSON (`J`): each one's length and bytes as answered, and `tag`,
 * what the answered bytes depend on besides the tokens' digests (hashed into the ETag).
 */
export type PageTexts<T, J> = {
  length(item: T): number;
  copy(item: T, target: Buffer, at: number): number;
  tag: string;
  /** Never set: ties the texts to their JSON type. */
  readonly json?: J;
};

// `{"data":[` … `],"meta":` … `}`: TokenPage's keys, in the spec's order.
const [DATA, META] = jsonObjectPieces<TokenPage>()(['data', 'meta']);
const HEAD = `${DATA}[`;
const TAIL = `]${META}`;
const COMMA = 0x2c;
const CLOSE = 0x7d;

/**
 * `{"data":[…],"meta":…}` copied together from the slab: one Buffer, no string per page. Its
 * ETag hashes the tokens' digests, the meta and the texts' tag, which determine the body, instead of the body
 * (8 bytes per token to hash, not the whole page; docs/performance.md, fifth round). Byte for
 * byte JSON.stringify of the TokenPage (test/readModel/tokens/pageAnswer.test.ts).
 */
export function pageAnswer<T extends PageEntry>(texts: PageTexts<T, TokenPage['data'][number]>, data: readonly T[], meta: Json<TokenPage['meta']>): TaggedJson<TokenPage> {
  const digests = Buffer.allocUnsafe(data.length * 8);
  for (let i = 0; i < data.length; i++) {
    digests.writeInt32LE(data[i]!.digestHigh, i * 8);
    digests.writeInt32LE(data[i]!.digestLow, i * 8 + 4);
  }
  const etag = `W/"${createHash('sha1').update(digests).update(meta).update(texts.tag).digest('base64url')}"`;
  return { bytes: pageBody(texts, data, meta), etag };
}

function pageBody<T extends PageEntry>(texts: PageTexts<T, TokenPage['data'][number]>, data: readonly T[], meta: Json<TokenPage['meta']>): JsonBytes<TokenPage> {
  let size = HEAD.length + Math.max(0, data.length - 1) + TAIL.length + meta.length + 1;
  for (const e of data) size += texts.length(e);
  const body = Buffer.allocUnsafe(size);
  let at = body.write(HEAD, 0, 'latin1');
  for (let i = 0; i < data.length; i++) {
    if (i > 0) body[at++] = COMMA;
    at = texts.copy(data[i]!, body, at);
  }
  at += body.write(TAIL, at, 'latin1');
  at += body.write(meta, at, 'latin1'); // ASCII: numbers only
  // allocUnsafe: a short copy would send whatever the memory held before
  if (at !== size - 1) throw new Error(`page assembled ${at + 1} of ${size} bytes`);
  body[at] = CLOSE;
  return body as JsonBytes<TokenPage>; // put together from the pieces typed above
}
