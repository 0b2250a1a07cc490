import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "markdown",
    environment: "node",
    include: ["src/**/*.test.ts"],
  },
});
