import type { Response } from 'express';

/**
 * Sends an already serialised JSON body. With response validation on (tests), the body goes
 * through res.json, where express-openapi-validator checks it against the spec.
 */
export function sendJsonBody(res: Response, body: string, validate: boolean | undefined): void {
  if (validate) {
    res.json(JSON.parse(body));
    return;
  }
  res.type('application/json').send(body);
}
