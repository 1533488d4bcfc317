import type { Response } from 'express';

/** Sends an already serialised JSON body (a string, or UTF-8 bytes) with the JSON content type. */
export function sendJsonBody(res: Response, body: string | Buffer): void {
  // Express adds the charset to strings' Content-Type only: set it for bytes alike.
  res.type('application/json; charset=utf-8').send(body);
}
