import type { ServerResponse } from 'node:http';
import type { Response } from 'express';
import type { FieldIssue } from '../errors/index.ts';

export type ProblemKind = 'validation' | 'not-found' | 'method-not-allowed' | 'rate-limited' | 'unavailable' | 'internal' | 'bad-request' | 'not-acceptable' | 'unsupported-media-type' | 'header-fields-too-large' | 'request-timeout' | 'uri-too-long';

const titles: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export type Problem = {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  errors?: FieldIssue[];
};

export function problem(status: number, kind: ProblemKind, detail: string, errors?: FieldIssue[]): Problem {
  return {
    type: `urn:token-api:problem:${kind}`,
    title: titles[status] ?? 'Error',
    status,
    detail,
    ...(errors ? { errors } : {}),
  };
}

/** Answers with an RFC 9457 problem document. */
export function sendProblem(res: Response, body: Problem): void {
  res.status(body.status).type('application/problem+json').send(JSON.stringify(body));
}

/** The same answer as sendProblem, for the lanes in front of Express (plain node:http). */
export function writeProblem(res: ServerResponse, body: Problem): void {
  const text = JSON.stringify(body);
  res.statusCode = body.status;
  res.setHeader('Content-Type', 'application/problem+json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
