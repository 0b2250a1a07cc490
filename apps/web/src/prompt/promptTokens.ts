/**
 * The composer's prompt tokenizer lives in `@app/markdown` (a sent user message shows the same
 * tokens, and the server reads its rendered text): re-exported here for the composer.
 */
export {
  type ChipToken,
  type CitationToken,
  findMentionQuery,
  type MentionToken,
  type PromptToken,
  type SkillToken,
  type TextToken,
  type TokenizeOptions,
  tokenizePrompt,
} from "@app/markdown";
