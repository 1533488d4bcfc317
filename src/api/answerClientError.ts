import type { Socket } from 'node:net';
import { problem, type Problem } from './problem.ts';

/** The longest request target (path and query) served; a longer one is answered 414. */
export const MAX_URL_BYTES = 8192;

export const uriTooLong = (): Problem => problem(414, 'uri-too-long', `The request URL is longer than this server accepts (${MAX_URL_BYTES} bytes).`);

/**
 * True when the bytes Node's parser held when it gave up begin with a request line longer than
 * MAX_URL_BYTES (the request line counts towards the header limit): the URL is too long, not the headers.
 */
function requestLineTooLong(raw: unknown): boolean {
  if (!Buffer.isBuffer(raw)) return false;
  const end = raw.indexOf('\r\n');
  return (end < 0 ? raw.length : end) > MAX_URL_BYTES;
}

/** The answer to a request Node refused before any handler ran, by the parser's error code. */
export function clientErrorProblem(error: NodeJS.ErrnoException & { rawPacket?: unknown }): Problem {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      if (requestLineTooLong(error.rawPacket)) return uriTooLong();
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
