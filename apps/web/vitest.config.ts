import react from "@vitejs/plugin-react";
import { configDefaults, defineProject } from "vitest/config";
import { NODE_TESTS } from "./vitest.nodeTests.ts";

/** Web tests that need a DOM, in jsdom. The DOM-free ones: vitest.node.config.ts. */
export default defineProject({
  plugins: [react()],
  test: {
    name: "web",
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    exclude: [...configDefaults.exclude, ...NODE_TESTS],
    setupFiles: ["./src/test-setup.ts"],
  },
});
