import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { precompress } from "./buildPlugins/precompress.ts";

/**
 * Libraries get chunks of their own, apart from the app's code: the browser fetches them in
 * parallel (index.html preloads each), and an app-only change leaves them cached. Lexical is
 * left out so it stays in the lazily loaded composer chunk, and so are lowlight and highlight.js:
 * the code highlighter and each language's grammar load on demand, in chunks of their own.
 */
function vendorChunk(id: string): string | undefined {
  // Zod decides at each schema's construction whether to probe eval (a CSP violation), so its
  // jitless switch must run before any chunk builds a schema: it lives in Zod's own chunk, which
  // every such chunk imports first.
  if (id.endsWith("/src/zodJitless.ts")) return "vendor-zod";
  const match = /node_modules\/\.pnpm\/(@[^+/]+\+[^@/]+|[^@/]+)@/.exec(id);
  if (!match) return undefined;
  const name = match[1]!.replace("+", "/");
  if (name === "lexical" || name.startsWith("@lexical/")) return undefined;
  if (name === "lowlight" || name === "highlight.js") return undefined;
  if (name === "react" || name === "react-dom" || name === "scheduler") return "vendor-react";
  if (name.startsWith("@legendapp/")) return "vendor-list";
  if (name.startsWith("@tanstack/")) return "vendor-router";
  if (name === "zod") return "vendor-zod";
  return "vendor-markdown"; // react-markdown, remark-gfm and the unified/micromark packages
}

const API_TARGET = "http://127.0.0.1:4310";

export default defineConfig({
  // precompress: .br and .gz next to the built files, served by the server (static.ts).
  plugins: [react(), precompress()],
  server: {
    proxy: {
      "/api": {
        target: API_TARGET,
        // The API answers only to its own Host and Origin (DNS-rebinding and CSRF checks):
        // present requests from this dev server's own pages as the API's own.
        changeOrigin: true,
        configure: (proxy) => {
          proxy.on("proxyReq", (proxyReq, req) => {
            const origin = req.headers.origin;
            if (origin !== undefined && origin === `http://${req.headers.host}`) {
              proxyReq.setHeader("origin", API_TARGET);
            }
          });
        },
      },
    },
  },
  build: {
    outDir: "dist",
    chunkSizeWarningLimit: 2000,
    rollupOptions: { output: { manualChunks: vendorChunk } },
  },
});
