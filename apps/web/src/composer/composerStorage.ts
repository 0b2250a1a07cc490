/**
 * Draft and stash persistence in localStorage. Both store plain prompt strings only: chips are
 * rebuilt from the string by the tokenizer, so no editor state or citation metadata is stored.
 * Every function reports storage failures (quota, disabled storage) as values instead of
 * throwing, so the in-memory draft is never lost because of them.
 */
import { assistantCitationsToPlainText, truncateText } from "@app/citations";
import { z } from "zod";

/** Result of a write: ok, or a readable reason. */
export type StorageWriteResult = { ok: true } | { ok: false; error: string };

/** One stashed draft. `threadId` is the thread it was stashed from. */
export type StashedDraft = { id: string; threadId: string; text: string; createdAt: string };

const STASH_KEY = "composer:stash:v1";
const StashListSchema = z.array(
  z.object({ id: z.string(), threadId: z.string(), text: z.string(), createdAt: z.string() }),
);

/** Longest stash preview, in UTF-16 units before the ellipsis. */
export const STASH_PREVIEW_LENGTH = 80;

/** The localStorage key of a thread's draft. */
export function draftKey(threadId: string): string {
  return `composer:draft:v1:${threadId}`;
}

/** localStorage, or null when the browser refuses access (e.g. blocked storage). */
function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** Turns a storage exception into a sentence for the user. */
function describeStorageError(error: unknown): string {
  // DOMException is not always an Error subclass (e.g. across realms), so read the name directly.
  const name =
    typeof error === "object" && error !== null && "name" in error ? String(error.name) : "";
  if (name === "QuotaExceededError" || name === "NS_ERROR_DOM_QUOTA_REACHED") {
    return "Browser storage is full";
  }
  return "Browser storage is unavailable";
}

/** Reads a thread's saved draft ("" when there is none or storage is unavailable). */
export function loadDraft(threadId: string): string {
  try {
    return storage()?.getItem(draftKey(threadId)) ?? "";
  } catch {
    return "";
  }
}

/** Saves a thread's draft; an empty draft removes the key. */
export function saveDraft(threadId: string, text: string): StorageWriteResult {
  const store = storage();
  if (store === null) return { ok: false, error: "Browser storage is unavailable" };
  try {
    if (text === "") store.removeItem(draftKey(threadId));
    else store.setItem(draftKey(threadId), text);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: describeStorageError(error) };
  }
}

/** Reads the stash list, newest first; malformed data reads as an empty list. */
export function loadStashes(): StashedDraft[] {
  try {
    const raw = storage()?.getItem(STASH_KEY);
    if (raw == null) return [];
    const parsed = StashListSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** Writes the whole stash list. */
export function saveStashes(stashes: readonly StashedDraft[]): StorageWriteResult {
  const store = storage();
  if (store === null) return { ok: false, error: "Browser storage is unavailable" };
  try {
    if (stashes.length === 0) store.removeItem(STASH_KEY);
    else store.setItem(STASH_KEY, JSON.stringify(stashes));
    return { ok: true };
  } catch (error) {
    return { ok: false, error: describeStorageError(error) };
  }
}

/** True when a storage event concerns the stash list (another tab changed it). */
export function isStashStorageKey(key: string | null): boolean {
  return key === null || key === STASH_KEY;
}

/** A fresh stash entry id. */
export function newStashId(): string {
  const random = globalThis.crypto?.randomUUID?.();
  return random ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/**
 * One-line preview of a prompt: citations read as their quotes (and comments), whitespace runs
 * collapse to one space, and long text is cut to {@link STASH_PREVIEW_LENGTH} units plus "…"
 * without splitting a surrogate pair.
 */
export function stashPreview(text: string): string {
  const plain = assistantCitationsToPlainText(text).replace(/\s+/g, " ").trim();
  return truncateText(plain, STASH_PREVIEW_LENGTH, "…");
}
