/** The build's precompressed variants (precompress.ts) on real files in a temp dir. */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { MIN_PRECOMPRESS_BYTES, precompressDir } from "./precompress.ts";

let dir = "";
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("precompressDir", () => {
  it("writes .br and .gz next to text files that decompress to the same bytes", async () => {
    dir = await mkdtemp(join(tmpdir(), "precompress-"));
    await mkdir(join(dir, "assets"));
    const js = Buffer.from(
      Array.from({ length: 2000 }, (_, i) => `export const v${i} = "é😀${i}";\n`).join(""),
    );
    await writeFile(join(dir, "assets", "index-abc.js"), js);
    await writeFile(join(dir, "index.html"), `<!doctype html>${"<p>hello</p>".repeat(200)}`);
    await writeFile(join(dir, "tiny.css"), "body{}");
    const png = Buffer.alloc(4096, 7);
    await writeFile(join(dir, "logo.png"), png);

    expect(await precompressDir(dir)).toBe(2);
    const br = await readFile(join(dir, "assets", "index-abc.js.br"));
    const gz = await readFile(join(dir, "assets", "index-abc.js.gz"));
    expect(brotliDecompressSync(br).equals(js)).toBe(true);
    expect(gunzipSync(gz).equals(js)).toBe(true);
    expect(br.length).toBeLessThan(gz.length);
    // Too small to gain, or not text: left alone.
    expect(Buffer.byteLength("body{}")).toBeLessThan(MIN_PRECOMPRESS_BYTES);
    expect((await readdir(dir)).sort()).toEqual(
      ["assets", "index.html", "index.html.br", "index.html.gz", "logo.png", "tiny.css"].sort(),
    );
  });
});
