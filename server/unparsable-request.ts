import http from 'node:http';
import type { Duplex } from 'node:stream';
import { requestIdFrom } from '../runtime/request-id.ts';
import { type ApiError, errorBody, statusForCode } from '../rest-facade/error-envelope.ts';

/** What Node's HTTP parser error stands for, in the API's terms. */
function apiErrorFor(error: NodeJS.ErrnoException & { reason?: string }): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'headers_too_large', message: `The request line and headers exceed ${http.maxHeaderSize} bytes` };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { code: 'payload_too_large', message: 'The chunk extensions of the body are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'request_timeout', message: 'The request did not arrive in time' };
    default:
      return { code: 'validation_error', message: `The request is not well-formed HTTP/1.1: ${error.reason ?? error.message}`, field: null };
  }
}

/**
 * Answers a request Node's HTTP parser refused before any handler saw it (a
 * 20 kB URL, `Content-Length` beside chunked framing) in the API's envelope
 * with a request id, as Node itself would answer it otherwise (with an empty
 * body): only when nothing of a response went out on the connection yet,
 * then the connection is closed, since what follows on it cannot be framed.
 */
export function answerUnparsableRequest(error: NodeJS.ErrnoException & { reason?: string }, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy(error);
    return;
  }
  // The headers were not parsed, so an inbound X-Request-Id cannot be read: the id is a new one.
  const requestId = requestIdFrom(undefined);
  const apiError = apiErrorFor(error);
  const status = statusForCode(apiError.code);
  const body = JSON.stringify(errorBody(apiError, requestId));
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
