import type { Response } from 'express';

/**
 * Sends an already serialised JSON body (a string, or UTF-8 bytes). With response validation on
 * (tests), the body goes through res.json, where express-openapi-validator checks it against
 * the spec.
 */
export function sendJsonBody(res: Response, body: string | Buffer, validate: boolean | undefined): void {
  if (validate) {
    res.json(JSON.parse(body.toString()));
    return;
  }
  // Express adds the charset to strings' Content-Type only: set it for bytes alike.
  res.type('application/json; charset=utf-8').send(body);
}
