/**
 * Parsing and rendering of Markdown blocks, with a shared cache of rendered element trees.
 * Virtualized rows unmount and remount while scrolling; reusing the parsed tree keeps remounts
 * free of Markdown parsing, and `warmMarkdownCache` parses loaded messages during idle time so
 * rows are usually parsed before they scroll into view.
 */
import { splitMarkdownBlocks } from "@app/markdown";
import type { ReactElement } from "react";
import { type IdleDeadlineLike, requestIdle } from "../ui/idle.ts";
import { type MarkdownFlavor, parseMarkdownBlock } from "./markdownParse.ts";
import { renderMarkdownTree } from "./markdownRender.ts";

export type { MarkdownFlavor } from "./markdownParse.ts";

/** The cache key of a block: the same text at another offset or flavor renders differently. */
function markdownBlockKey(source: string, offset: number, flavor: MarkdownFlavor): string {
  return `${flavor}\u0000${offset}\u0000${source}`;
}

/** Parses and renders one block. */
export function renderMarkdownBlock(
  source: string,
  offset: number,
  flavor: MarkdownFlavor,
): ReactElement {
  return renderMarkdownTree(parseMarkdownBlock(source, offset, flavor));
}

/** Rendered elements of finished blocks, least recently used first. */
const blockCache = new Map<string, ReactElement>();
const BLOCK_CACHE_LIMIT = 2000;

/** Whether a block is already parsed (for tests and diagnostics; does not touch recency). */
export function isMarkdownBlockCached(
  source: string,
  offset: number,
  flavor: MarkdownFlavor,
): boolean {
  return blockCache.has(markdownBlockKey(source, offset, flavor));
}

/** The rendered block from the cache, parsing it on a miss. */
export function cachedMarkdownBlock(
  source: string,
  offset: number,
  flavor: MarkdownFlavor,
): ReactElement {
  const key = markdownBlockKey(source, offset, flavor);
  const hit = blockCache.get(key);
  if (hit !== undefined) {
    blockCache.delete(key);
    blockCache.set(key, hit);
    return hit;
  }
  const element = renderMarkdownBlock(source, offset, flavor);
  blockCache.set(key, element);
  if (blockCache.size > BLOCK_CACHE_LIMIT) {
    const oldest = blockCache.keys().next().value;
    if (oldest !== undefined) blockCache.delete(oldest);
  }
  return element;
}

/** Idle-time budget left unused per slice, so input and animation frames stay responsive. */
const IDLE_RESERVE_MS = 3;
/** Room in an idle period (ms) in which any block is parsed, however long it is expected to take. */
const LONG_IDLE_MS = 30;
const pending: { text: string; flavor: MarkdownFlavor }[] = [];
let scheduled = false;

/** Blocks of the message being warmed, parsed one at a time so no slice runs long. */
let currentBlocks: { source: string; start: number; flavor: MarkdownFlavor }[] = [];

/**
 * Recent parse cost in ms per 1,000 characters (a running average). A block is started only when
 * the idle period has room for it: one slow block (a long table, say) must not run past the idle
 * period into the next frame, which is what delays frames while a long thread scrolls.
 */
let msPerKiloChar = 0.5;

/** Expected parse time of a block of `length` characters, in ms. */
function expectedParseMs(length: number): number {
  return (msPerKiloChar * length) / 1000;
}

function work(deadline: IdleDeadlineLike): void {
  for (;;) {
    if (currentBlocks.length === 0) {
      const next = pending.shift();
      if (!next) break;
      currentBlocks = splitMarkdownBlocks(next.text).map((b) => ({ ...b, flavor: next.flavor }));
      continue;
    }
    const block = currentBlocks[0]!;
    // A block waits for an idle period it fits in. A block too long for any waits for a long
    // one (the browser grants up to 50 ms when no frame is due), so it cannot stall the queue.
    const room = deadline.timeRemaining() - IDLE_RESERVE_MS;
    if (room <= 0) break;
    if (expectedParseMs(block.source.length) > room && room < LONG_IDLE_MS) break;
    currentBlocks.shift();
    if (isMarkdownBlockCached(block.source, block.start, block.flavor)) continue;
    const started = performance.now();
    cachedMarkdownBlock(block.source, block.start, block.flavor);
    const took = performance.now() - started;
    if (block.source.length >= 200) {
      msPerKiloChar += ((took * 1000) / block.source.length - msPerKiloChar) * 0.2;
    }
  }
  if (pending.length > 0 || currentBlocks.length > 0) requestIdle(work);
  else scheduled = false;
}

/**
 * Queues finished message texts to be parsed in idle time, first in the order given (pass the
 * ones the reader will reach first). Already cached blocks cost a map lookup.
 */
export function warmMarkdownCache(
  items: readonly { text: string; flavor: MarkdownFlavor }[],
): void {
  for (const item of items) if (item.text !== "") pending.push(item);
  // Keep the queue bounded: the newest requests matter most.
  if (pending.length > 400) pending.splice(0, pending.length - 400);
  if (!scheduled && pending.length > 0) {
    scheduled = true;
    requestIdle(work);
  }
}
