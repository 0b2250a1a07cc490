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
    include: ["src/**/*.dom.test.{ts,tsx}"],
    setupFiles: ["./src/test-setup.ts"],
  },
});
