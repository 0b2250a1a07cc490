/**
 * Requests Node's HTTP parser refuses before the app sees them (issue 29): a URL or headers over
 * 16 KB (`HPE_HEADER_OVERFLOW`), a request that arrives too slowly, or bytes that are not HTTP.
 * Without a `clientError` listener Node answers them bare (`431` without a body or our
 * headers); this one answers in the API's error shape, with the headers every response
 * carries (`securityHeaders.ts`), and closes the connection.
 */
import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import type { ErrorCode } from "@app/protocol";
import { statusOf } from "./errorStatus.ts";

const REASON: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
};

function answerOf(error: { code?: string }): { status: number; code: ErrorCode; message: string } {
  if (error.code === "HPE_HEADER_OVERFLOW") {
    return {
      status: statusOf("headers_too_large"),
      code: "headers_too_large",
      message: "The request's URL and headers are larger than 16 KB.",
    };
  }
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return {
      status: 408,
      code: "invalid_request",
      message: "The request took too long to arrive.",
    };
  }
  return { status: 400, code: "invalid_request", message: "The request is not valid HTTP." };
}

/** Answers requests the HTTP parser refused with the API's error shape and headers. */
export function answerClientErrors(server: Pick<Server, "on">): void {
  server.on("clientError", (error: Error & { code?: string }, socket: Duplex) => {
    // Nothing to answer on a connection that is gone or already answering.
    const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || answering?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, code, message } = answerOf(error);
    const body = JSON.stringify({ error: { code, message } });
    socket.end(
      [
        `HTTP/1.1 ${status} ${REASON[status] ?? "Error"}`,
        "Content-Type: application/json; charset=UTF-8",
        `Content-Length: ${Buffer.byteLength(body)}`,
        "X-Content-Type-Options: nosniff",
        "Referrer-Policy: no-referrer",
        "Connection: close",
        "",
        body,
      ].join("\r\n"),
    );
  });
}
