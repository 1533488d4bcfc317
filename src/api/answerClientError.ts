import type { Socket } from 'node:net';
import { problem, type Problem } from './problem.ts';

/** The answer to a request Node refused before any handler ran, by the parser's error code. */
export function clientErrorProblem(error: NodeJS.ErrnoException): Problem {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return problem(431, 'header-fields-too-large', 'The request headers are larger than this server accepts (16 KiB in all).');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return problem(408, 'request-timeout', 'The request was not received in time.');
    default:
      return problem(400, 'bad-request', 'The request is not valid HTTP/1.1.');
  }
}

/**
 * Answers a client error on the raw socket with problem+json and closes it (Node's own answer
 * has no body). A socket that has already sent something, or is gone, is just destroyed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const p = clientErrorProblem(error);
  const body = JSON.stringify(p);
  socket.end(
    `HTTP/1.1 ${p.status} ${p.title}\r\n` +
      'Content-Type: application/problem+json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}
