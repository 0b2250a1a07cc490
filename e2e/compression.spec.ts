/**
 * Compressed assets from the real build (issue 22): `pnpm --filter @app/web build` writes `.br`
 * and `.gz` next to each bundle (apps/web/buildPlugins/precompress.ts) and the server sends the
 * one a client accepts. Checked over raw HTTP (no client-side decoding) against the app's own
 * entry script, and in Chromium, which offers gzip on plain HTTP and must run the app from it.
 */
import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { expect, test } from "./support/fixtures.ts";

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

function get(url: string, acceptEncoding?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> =
      acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding };
    request(url, { headers }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (part: Buffer) => parts.push(part));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }),
      );
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

/** The entry script index.html loads. */
async function entryScript(baseURL: string): Promise<string> {
  const html = (await get(`${baseURL}/`)).body.toString("utf8");
  const src = /<script type="module"[^>]*src="([^"]+)"/.exec(html)?.[1];
  expect(src).toBeDefined();
  return `${baseURL}${src}`;
}

test("the built entry script is sent as brotli, gzip or as is, each the same bytes", async ({
  baseURL,
}) => {
  const url = await entryScript(baseURL!);
  const plain = await get(url);
  expect(plain.status).toBe(200);
  expect(plain.headers["content-encoding"]).toBeUndefined();
  expect(plain.headers.vary).toBe("Accept-Encoding");

  const br = await get(url, "gzip, deflate, br, zstd");
  expect(br.headers["content-encoding"]).toBe("br");
  expect(br.headers["content-type"]).toBe("text/javascript; charset=utf-8");
  expect(br.headers["cache-control"]).toContain("immutable");
  expect(br.headers.vary).toBe("Accept-Encoding");
  expect(br.body.length).toBeLessThan(plain.body.length / 2);
  expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);

  const gz = await get(url, "gzip, deflate");
  expect(gz.headers["content-encoding"]).toBe("gzip");
  expect(gz.headers.vary).toBe("Accept-Encoding");
  expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
});

test("Chromium gets the scripts compressed and runs the app from them", async ({ page }) => {
  // Scripts under 1 KB have no variants (the build skips them); every other one must come
  // compressed.
  const encodings = new Map<string, string | undefined>();
  page.on("response", (response) => {
    const headers = response.headers();
    if (response.url().endsWith(".js") && headers.vary === "Accept-Encoding") {
      encodings.set(response.url(), headers["content-encoding"]);
    }
  });
  await page.goto("/");
  await expect(page.getByRole("navigation", { name: "Threads" })).toBeVisible();
  expect(encodings.size).toBeGreaterThanOrEqual(3);
  for (const [url, encoding] of encodings) {
    expect(["br", "gzip"], url).toContain(encoding);
  }
});
