import { createHash } from 'node:crypto';

/** Identifies a pair of spec texts, so a prebuilt site can be told apart from a stale one. */
export function specHash(openapiYaml: string, openrpcJson: string): string {
  return createHash('sha256').update(openapiYaml).update('\0').update(openrpcJson).digest('hex').slice(0, 16);
}
