/**
 * One HTTP request with exactly the headers given (fetch would set or refuse Host, Origin and
 * Sec-Fetch-Site), for tests of what browsers and attackers can send.
 */
import { request } from "node:http";

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body's bytes as sent (not decompressed). */
  body: Buffer;
  json<T = unknown>(): T;
}

export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? "GET", headers: options.headers ?? {} },
      (res) => {
        const parts: Buffer[] = [];
        res.on("data", (part: Buffer) => parts.push(part));
        res.on("end", () => {
          const body = Buffer.concat(parts);
          const text = body.toString("utf8");
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            body,
            json: <T>() => JSON.parse(text) as T,
          });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}
