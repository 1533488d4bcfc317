/** A serialised JSON body with its ETag, computed by its producer more cheaply than hashing the body. */
export type TaggedBody = { bytes: Buffer; etag: string };
