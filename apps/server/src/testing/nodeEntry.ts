/**
 * How a test runs one of the server's entry points as a process of its own: the bundle the test
 * run built (`testBundles.ts`), as `npm start` runs the server, or, where no run built one (a
 * benchmark, a script), the source through tsx.
 */
import { resolve } from "node:path";

const SERVER_DIR = resolve(import.meta.dirname, "../..");

/** Each entry point: its source (from the server's dir) and the variable naming its bundle. */
export const NODE_ENTRIES = {
  server: { source: "src/main.ts", bundle: "CHAT_TEST_SERVER_BUNDLE" },
  seed: { source: "src/seed.ts", bundle: "CHAT_TEST_SEED_BUNDLE" },
  searchPieceCrash: {
    source: "src/testing/searchPieceCrash.ts",
    bundle: "CHAT_TEST_PIECE_CRASH_BUNDLE",
  },
} as const;

export type NodeEntry = keyof typeof NODE_ENTRIES;

/** Node's arguments (after any flags) that run `entry`, from the server's dir. */
export function nodeEntryArgs(entry: NodeEntry): string[] {
  const { source, bundle } = NODE_ENTRIES[entry];
  const built = process.env[bundle];
  return built ? [built] : ["--import", "tsx", resolve(SERVER_DIR, source)];
}
