import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, removeDir } from "../testing/harness.ts";
import { WorkspaceFileIndex } from "./workspaceFiles.ts";

let root: string;

beforeAll(async () => {
  root = await makeTempDir("chat-files-");
  const files = [
    "README.md",
    "apps/server/src/main.ts",
    "apps/server/src/http/app.ts",
    "apps/web/src/composer/Composer.tsx",
    "packages/citations/src/href.ts",
    "node_modules/dep/index.js",
    ".git/config",
    ".hidden/secret.ts",
    "apps/web/dist/assets/main.js",
  ];
  for (const file of files) {
    await mkdir(join(root, dirname(file)), { recursive: true });
    await writeFile(join(root, file), "x");
  }
});

afterAll(() => removeDir(root));

describe("WorkspaceFileIndex", () => {
  it("lists files relative to the root, skipping node_modules, .git, dist and hidden dirs", async () => {
    const files = await new WorkspaceFileIndex(root).search("", 50);
    expect([...files].sort()).toEqual([
      "README.md",
      "apps/server/src/http/app.ts",
      "apps/server/src/main.ts",
      "apps/web/src/composer/Composer.tsx",
      "packages/citations/src/href.ts",
    ]);
  });

  it("ranks name prefix, then name substring, then path substring, then subsequence", async () => {
    const index = new WorkspaceFileIndex(root);
    expect(await index.search("main", 10)).toEqual(["apps/server/src/main.ts"]);
    expect(await index.search("compo", 10)).toEqual(["apps/web/src/composer/Composer.tsx"]);
    expect(await index.search("http", 10)).toEqual(["apps/server/src/http/app.ts"]);
    expect(await index.search("ctsrchref", 10)).toEqual(["packages/citations/src/href.ts"]);
    expect(await index.search("APP", 10)).toEqual([
      "apps/server/src/http/app.ts",
      "apps/server/src/main.ts",
      "apps/web/src/composer/Composer.tsx",
    ]);
    expect(await index.search("zzz", 10)).toEqual([]);
    expect(await index.search("", 2)).toHaveLength(2);
  });
});
