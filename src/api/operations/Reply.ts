import type { OperationBodies, OperationId, OperationParams } from '../../../generated/openapi/operations.ts';
import type { Json, JsonBytes } from '../../readModel/json.ts';
import type { ApiDeps } from '../ApiDeps.ts';

type Content<Id extends OperationId> = OperationBodies[Id];
/** A 200 body of one media type: JSON as the text (or UTF-8 bytes) of the spec's schema, any other type (text) as its schema's string. */
type Body<M, B> = M extends 'application/json' ? Json<B> | JsonBytes<B> : B extends string ? B : never;

/** Headers an answer sets itself (supply: Cache-Control, Age, X-Supply-*). */
export type ReplyHeaders = readonly (readonly [string, string])[];

/**
 * What an operation's answer gives: its 200 in one of the media types the spec declares for it,
 * the body typed by that media type's schema; the ETag when its producer knows it (catalogue
 * pages), and headers of its own. `notCached` keeps a cacheable operation's answer out of the
 * response cache when it moves with something the data version does not follow (a price after
 * the chain's head); it is still sent with the cache's ETag and Cache-Control.
 */
export type Reply<Id extends OperationId> = {
  [M in keyof Content<Id> & string]: { type: M; body: Body<M, Content<Id>[M]>; etag?: string; headers?: ReplyHeaders; notCached?: true };
}[keyof Content<Id> & string];

/** Any operation's reply, as the senders see it (every media type's body is text or bytes). */
export type SentReply = { type: string; body: string | Buffer; etag?: string; headers?: ReplyHeaders; notCached?: true };

/** An operation's answer: its parameters (validated, defaults applied) in, its 200 out; errors are thrown (problemFor). */
export type Answer<Id extends OperationId> = (params: OperationParams[Id]) => Promise<Reply<Id>>;

/** Makes an operation's answer from what the API reads. */
export type AnswerFactory<Id extends OperationId> = (deps: ApiDeps) => Answer<Id>;

/** The Content-Type of a reply's media type (every text the API sends is UTF-8). */
export const contentTypeOf = (reply: SentReply): string => `${reply.type}; charset=utf-8`;
