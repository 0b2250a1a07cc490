import react from "@vitejs/plugin-react";
import { defineProject } from "vitest/config";

/**
 * Web tests that need a DOM, in jsdom: the naming rule is `*.dom.test.ts(x)`. Every other web
 * test runs in plain Node (vitest.node.config.ts), where a file starts in milliseconds instead
 * of paying for a jsdom window.
 */
export default defineProject({
  plugins: [react()],
  test: {
    name: "web",
    environment: "jsdom",
    // Files share one jsdom window and a worker's module graph instead of building both again
    // per file; src/test-setup.ts empties the window's storage, body, stubs and timers after
    // each file (CONTRIBUTING.md, "Isolation").
    isolate: false,
    include: ["src/**/*.dom.test.{ts,tsx}"],
    setupFiles: ["./src/test-setup.ts"],
  },
});
