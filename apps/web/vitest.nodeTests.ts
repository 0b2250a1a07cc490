/**
 * Web tests that need no DOM (pure modules, stores, parsers): they run in plain Node, project
 * `web-node` (vitest.node.config.ts), where a file starts in milliseconds instead of paying for
 * a jsdom window. Every other web test runs in jsdom, project `web` (vitest.config.ts), so a new
 * test file gets a DOM unless it is listed here. List a file only once it passes under Node.
 */
export const NODE_TESTS = [
  "src/linkSyntaxOwner.test.ts",
  "src/api/client.test.ts",
  "src/api/threadEvents.test.ts",
  "src/citations/citationHighlightTiming.test.ts",
  "src/composer/citationCommentPlacement.test.ts",
  "src/composer/composerSubmission.test.ts",
  "src/composer/composerTheme.test.ts",
  "src/composer/draftLength.test.ts",
  "src/composer/promptOffsets.test.ts",
  "src/composer/promptTokens.test.ts",
  "src/copy/composeMarkdownCopy.test.ts",
  "src/markdown/splitMarkdownBlocks.test.ts",
  "src/thread/threadStore.test.ts",
  "src/threads/threadList.test.ts",
  "src/timeline/followPolicy.test.ts",
  "src/timeline/plainTextLines.test.ts",
  "src/timeline/timelineRows.test.ts",
];
