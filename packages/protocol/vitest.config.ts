import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "protocol",
    environment: "node",
    // Pure functions: files share a worker's module graph (CONTRIBUTING.md, "Isolation").
    isolate: false,
    include: ["src/**/*.test.ts"],
  },
});
