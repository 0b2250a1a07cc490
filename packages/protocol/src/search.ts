/** Find in one thread and search across all threads. */
import { z } from "zod";
import { CitedRangeSchema, ThreadSchema } from "./entities.ts";

/**
 * `GET /api/threads/:threadId/search?q=<text>&cursor=<c>&limit=<n>&case=<0|1>&word=<0|1>`: the
 * messages whose rendered text contains `q`, in thread order (oldest first). `ranges` are sorted,
 * non-overlapping, half-open `[start, end)` UTF-16 offsets into the message's rendered-text stream
 * (what `renderedTextStream` computes for its body in the browser, and `renderedTextOfMarkdown` of
 * `@app/markdown` without one). A message reports at most 1000 ranges (`truncated: true` past
 * that). `nextCursor` fetches the next page; null on the last one.
 */
export const SearchRangeSchema = z
  .tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])
  .refine(([start, end]) => start < end, { message: "A range is non-empty: start < end." });
export type SearchRange = z.infer<typeof SearchRangeSchema>;
export const ThreadSearchMatchSchema = z.object({
  messageId: z.string(),
  role: z.enum(["user", "assistant"]),
  ranges: z.array(SearchRangeSchema).min(1),
  truncated: z.literal(true).optional(),
});
export type ThreadSearchMatch = z.infer<typeof ThreadSearchMatchSchema>;
export const ThreadSearchResponseSchema = z.object({
  matches: z.array(ThreadSearchMatchSchema),
  nextCursor: z.string().nullable(),
});
export type ThreadSearchResponse = z.infer<typeof ThreadSearchResponseSchema>;

/**
 * `GET /api/search?q=<text>&cursor=<c>&case=<0|1>&word=<0|1>`: matches in every thread, grouped
 * by thread, newest thread first, messages in thread order within each. `ranges` are as in
 * {@link ThreadSearchMatchSchema}; `snippet` is a short excerpt of the rendered text around the
 * first range, on one line, cut between words, with "…" where the text goes on (before: exactly
 * when `start > 0`; after: when more follows); `snippet.ranges` are the matches inside it, as
 * offsets into `snippet.text` ("…" included). `limited` is set when the query is too
 * short for the index (1-2 characters) and only the newest `scannedMessages` messages from the
 * cursor were read: `nextCursor` reads on.
 */
export const AllThreadsSearchMatchSchema = ThreadSearchMatchSchema.extend({
  snippet: z.object({
    text: z.string(),
    /** Offset in the message's rendered text of the first character shown after any "…". */
    start: z.number().int().nonnegative(),
    ranges: z.array(SearchRangeSchema),
  }),
  /**
   * The first range as a citation selector (`createAssistantCitationSelector` over the
   * message's whole rendered text): what a result's **Cite** quotes. Null for the user's own
   * messages, which cannot be cited.
   */
  quote: CitedRangeSchema.nullable(),
});
export type AllThreadsSearchMatch = z.infer<typeof AllThreadsSearchMatchSchema>;
export const AllThreadsSearchGroupSchema = z.object({
  thread: ThreadSchema,
  matches: z.array(AllThreadsSearchMatchSchema).min(1),
});
export type AllThreadsSearchGroup = z.infer<typeof AllThreadsSearchGroupSchema>;
export const AllThreadsSearchResponseSchema = z.object({
  groups: z.array(AllThreadsSearchGroupSchema),
  nextCursor: z.string().nullable(),
  limited: z
    .object({ reason: z.literal("short_query"), scannedMessages: z.number().int() })
    .nullable(),
});
export type AllThreadsSearchResponse = z.infer<typeof AllThreadsSearchResponseSchema>;
