/**
 * @app/citations: the pure citation kernel (DESIGN.md sections 3-5). No DOM, no React, no I/O.
 */

export * from "./chipLabel.ts";
export * from "./collect.ts";
export * from "./comment.ts";
export * from "./constants.ts";
export * from "./expandForProvider.ts";
export * from "./hash.ts";
export * from "./href.ts";
export * from "./link.ts";
export * from "./normalize.ts";
export * from "./plainText.ts";
export * from "./providerInput.ts";
export * from "./renderAsText.ts";
export * from "./resolve.ts";
export * from "./schema.ts";
export * from "./selector.ts";
export * from "./serialize.ts";
