import { mkdir, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  makeTempDir,
  RecordingAdapter,
  removeDir,
  startTestServer,
  type TestServer,
} from "../testing/harness.ts";
import { rawRequest } from "../testing/rawHttp.ts";

let server: TestServer;
let root: string;
/** A bundle with precompressed variants, as the web build writes them. */
const bundle = Buffer.from(
  Array.from({ length: 500 }, (_, i) => `export const v${i} = "é😀${i}";\n`).join(""),
);

beforeAll(async () => {
  root = await makeTempDir("chat-static-");
  const dist = join(root, "dist");
  await mkdir(join(dist, "assets"), { recursive: true });
  await writeFile(join(dist, "index.html"), "<!doctype html><title>app</title><div id=root></div>");
  await writeFile(join(dist, "assets", "app-123.js"), "console.log('app')");
  await writeFile(join(dist, "assets", "app-123.css"), "body{}");
  const js = join(dist, "assets", "index-abc.js");
  await writeFile(js, bundle);
  await writeFile(`${js}.br`, brotliCompressSync(bundle));
  await writeFile(`${js}.gz`, gzipSync(bundle));
  // A variant older than its file (the file was replaced after the build) must not be sent.
  const stale = join(dist, "assets", "stale.css");
  await writeFile(`${stale}.br`, brotliCompressSync("body{color:red}"));
  await writeFile(`${stale}.gz`, gzipSync("body{color:red}"));
  await utimes(`${stale}.br`, new Date(2020, 0, 1), new Date(2020, 0, 1));
  await utimes(`${stale}.gz`, new Date(2020, 0, 1), new Date(2020, 0, 1));
  await writeFile(stale, "body{color:blue}");
  await writeFile(join(root, "secret.txt"), "outside the web root");
  server = await startTestServer({ adapter: new RecordingAdapter(), webDist: dist });
});

afterAll(async () => {
  await server.close();
  await removeDir(server.dataDir);
  await removeDir(root);
});

describe("static web app", () => {
  it("serves index.html at / and files with their content types", async () => {
    const index = await server.request("/");
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await index.text()).toContain("<title>app</title>");

    const js = await server.request("/assets/app-123.js");
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(js.headers.get("cache-control")).toContain("immutable");
    expect(await js.text()).toBe("console.log('app')");
    const css = await server.request("/assets/app-123.css");
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
  });

  it("falls back to index.html for client routes but not for missing assets", async () => {
    const route = await server.request("/env-1/thread-1");
    expect(route.status).toBe(200);
    expect(await route.text()).toContain("<title>app</title>");
    const withHash = await server.request("/env-1/thread-1?x=1", {
      headers: { accept: "text/html" },
    });
    expect(withHash.status).toBe(200);
    expect((await server.request("/assets/missing.js")).status).toBe(404);
  });

  it("never serves a file outside the web root", async () => {
    for (const path of [
      "/../secret.txt",
      "/%2e%2e/secret.txt",
      "/assets/%2e%2e/%2e%2e/secret.txt",
      "/..%2fsecret.txt",
    ]) {
      const res = await server.request(path, { headers: { accept: "text/html" } });
      expect(await res.text()).not.toContain("outside the web root");
    }
  });

  it("shows a placeholder page when the web app is not built", async () => {
    const bare = await startTestServer({ adapter: new RecordingAdapter() });
    try {
      const res = await bare.request("/some/route");
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("pnpm run build");
      expect((await bare.request("/api/environment")).status).toBe(200);
    } finally {
      await bare.close();
      await removeDir(bare.dataDir);
    }
  });
});

describe("precompressed assets", () => {
  const get = (path: string, acceptEncoding?: string, method = "GET") =>
    rawRequest(`${server.url}${path}`, {
      method,
      headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding },
    });

  it("sends brotli when accepted: the bytes decompress to the file, with its type and caching", async () => {
    const res = await get("/assets/index-abc.js", "gzip, deflate, br, zstd");
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers.vary).toBe("Accept-Encoding");
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(Number(res.headers["content-length"])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(bundle.length);
    expect(brotliDecompressSync(res.body).equals(bundle)).toBe(true);
  });

  it("sends gzip when only gzip is accepted, or when brotli is refused (q=0)", async () => {
    for (const header of ["gzip", "gzip, deflate", "br;q=0, gzip", "x-gzip", "*, br;q=0"]) {
      const res = await get("/assets/index-abc.js", header);
      expect(res.headers["content-encoding"], header).toBe("gzip");
      expect(res.headers.vary).toBe("Accept-Encoding");
      expect(gunzipSync(res.body).equals(bundle)).toBe(true);
    }
    // At a higher weight, gzip wins over brotli.
    const weighted = await get("/assets/index-abc.js", "br;q=0.5, gzip;q=0.9");
    expect(weighted.headers["content-encoding"]).toBe("gzip");
  });

  it("sends the file itself otherwise, still saying it varies", async () => {
    for (const header of [undefined, "", "identity", "deflate", "br;q=0, gzip;q=0", "*;q=0"]) {
      const res = await get("/assets/index-abc.js", header);
      expect(res.status).toBe(200);
      expect(res.headers["content-encoding"], String(header)).toBeUndefined();
      expect(res.headers.vary).toBe("Accept-Encoding");
      expect(res.body.equals(bundle)).toBe(true);
    }
  });

  it("answers HEAD with the headers of the chosen variant", async () => {
    const res = await get("/assets/index-abc.js", "br", "HEAD");
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers.vary).toBe("Accept-Encoding");
    expect(res.body.length).toBe(0);
  });

  it("ignores variants older than their file, and files without variants do not vary", async () => {
    const stale = await get("/assets/stale.css", "br, gzip");
    expect(stale.headers["content-encoding"]).toBeUndefined();
    expect(stale.headers.vary).toBeUndefined();
    expect(stale.text).toBe("body{color:blue}");
    const plain = await get("/assets/app-123.css", "br, gzip");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBeUndefined();
    expect(plain.text).toBe("body{}");
  });
});
