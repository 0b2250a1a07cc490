/**
 * Wire shapes of the chat API (DESIGN.md section 7). Timestamps are ISO-8601 strings,
 * ids are opaque strings. Every error response is `{ error: { code, message, details? } }`.
 * One module per part of the contract; this index is the package's only entry.
 */
export * from "./entities.ts";
export * from "./errors.ts";
export * from "./events.ts";
export * from "./pages.ts";
export * from "./requests.ts";
export * from "./search.ts";
export * from "./threadList.ts";
