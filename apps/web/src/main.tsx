// First: configures Zod before any schema is used.
import "./zodJitless.ts";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { handOverFirstRows } from "./app/firstRows.ts";
import { createAppRouter } from "./app/router.tsx";
import "./styles.css";

const router = createAppRouter();
const root = document.getElementById("root");
if (!root) throw new Error("index.html is missing #root");
// A thread page may carry its newest rows, rendered by the server: they stay until the app's own.
handOverFirstRows(root);

createRoot(root).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
