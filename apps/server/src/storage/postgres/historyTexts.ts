/**
 * The texts of a provider's history, kept by one PostgreSQL store (issue 33). Every turn reads
 * the history before it (up to 50 earlier turns: their provider input and final answer), and
 * read whole each time it was one of a turn's costliest statements, on the database and on the
 * event loop alike (decoding every text), for text that never changes: a turn's provider input is written once, and an
 * answer's text once it is complete (a change is a new message, a new version). So the store
 * keeps them by turn id and message id, and each turn reads from the database only the texts it
 * has not seen (usually the last turn's). The sizes and which answer is chosen are read every
 * time, so versions, edits and budgets answer exactly as before.
 *
 * Bounded by characters, least recently used first out.
 */
export const HISTORY_TEXT_CACHE_CHARS = 8_000_000;

export class HistoryTextCache {
  readonly #texts = new Map<string, string>();
  readonly #maxChars: number;
  #chars = 0;

  constructor(maxChars = HISTORY_TEXT_CACHE_CHARS) {
    this.#maxChars = maxChars;
  }

  /** A turn's provider input, if kept. */
  input(turnId: string): string | undefined {
    return this.#get(`t${turnId}`);
  }

  /** A complete answer's text, if kept. */
  answer(messageId: string): string | undefined {
    return this.#get(`m${messageId}`);
  }

  setInput(turnId: string, text: string): void {
    this.#set(`t${turnId}`, text);
  }

  setAnswer(messageId: string, text: string): void {
    this.#set(`m${messageId}`, text);
  }

  #get(key: string): string | undefined {
    const text = this.#texts.get(key);
    if (text !== undefined) {
      // Most recently used last.
      this.#texts.delete(key);
      this.#texts.set(key, text);
    }
    return text;
  }

  #set(key: string, text: string): void {
    if (text.length > this.#maxChars) return;
    const old = this.#texts.get(key);
    if (old !== undefined) {
      this.#chars -= old.length;
      this.#texts.delete(key);
    }
    this.#texts.set(key, text);
    this.#chars += text.length;
    for (const [oldest, value] of this.#texts) {
      if (this.#chars <= this.#maxChars) break;
      this.#texts.delete(oldest);
      this.#chars -= value.length;
    }
  }
}
