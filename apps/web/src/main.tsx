// First: configures Zod before any schema is used.
import "./zodJitless.ts";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { handOverFirstRows } from "./app/firstRows.ts";
import { createAppRouter } from "./app/router.tsx";
import "./styles.css";
import "./app/shell.css";
import "./thread/threadView.css";
import "./timeline/timeline.css";
import "./markdown/markdown.css";
import "./app/narrowScreens.css";
import "./citations/chips.css";
import "./citations/backlinks/backlinks.css";
import "./citations/chipScope.css";
import "./citations/navigation/jumpControls.css";
import "./ui/visuallyHidden.css";
import "./thread/threadHeader.css";
import "./thread/threadComposer.css";
import "./citations/navigation/warnedRow.css";
import "./app/touchTargets.css";
import "./app/firstRows.css";

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
