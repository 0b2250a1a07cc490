/**
 * Conversations that change (issue 30, DESIGN.md section 8): edit and resend, regenerate,
 * version switches and branches. It checks the request, stops what must stop, and hands the
 * writes to the store in one transaction each; turns still run through {@link ProviderService}.
 *
 * Rules:
 * - only a prompt is edited (`not_editable` for an answer) and only an answer regenerated;
 * - editing or regenerating while a turn of the thread is unfinished stops that turn first
 *   (`stoppedTurnId` says which), so the new version never races the old path;
 * - every change of the path shown is a `thread.path` event in the same transaction, so every
 *   view (any tab, any process) reads its history again;
 * - a branch copies the path shown up to and including the message, in one transaction: a
 *   failure leaves nothing written. Links in copied prompts stay byte-identical; a chip in the
 *   branch finds its source's copy through `copyOf` (the copy links the store keeps).
 */

import type {
  BranchResponse,
  EditMessageResponse,
  Message,
  RegenerateResponse,
  ShownMessageResponse,
} from "@app/protocol";
import type { ChatStore } from "../storage/chatStore.ts";
import { DomainError, threadNotFound } from "./errors.ts";
import type { ThreadEventLog } from "./events.ts";
import { newId } from "./ids.ts";
import type { ProviderService } from "./providerService.ts";

export const BRANCH_TITLE_SUFFIX = " (branch)";

export interface ConversationChangesOptions {
  store: ChatStore;
  events: ThreadEventLog;
  provider: ProviderService;
  now?: () => string;
}

export class ConversationChanges {
  readonly #store: ChatStore;
  readonly #events: ThreadEventLog;
  readonly #provider: ProviderService;
  readonly #now: () => string;

  constructor(options: ConversationChangesOptions) {
    this.#store = options.store;
    this.#events = options.events;
    this.#provider = options.provider;
    this.#now = options.now ?? (() => new Date().toISOString());
  }

  /** A new version of a sent prompt, run as a new turn; the path shown follows it. */
  async edit(threadId: string, messageId: string, input: string): Promise<EditMessageResponse> {
    const message = await this.#messageOf(threadId, messageId);
    if (message.role !== "user") {
      throw new DomainError(
        "not_editable",
        "Only a prompt can be edited. Regenerate an answer instead.",
      );
    }
    const stoppedTurnId = await this.#stopUnfinished(threadId);
    const sent = await this.#provider.sendTurn(threadId, input, { versionOf: message.id });
    return { ...sent, stoppedTurnId };
  }

  /** A new version of an answer, streamed by a new turn with its prompt's input and history. */
  async regenerate(threadId: string, messageId: string): Promise<RegenerateResponse> {
    const message = await this.#messageOf(threadId, messageId);
    const run = message.role === "assistant" ? await this.#store.answerRunOf(message.id) : null;
    if (run === null) {
      throw new DomainError("not_editable", "Only an answer to a prompt can be regenerated.");
    }
    const prompt = (await this.#store.getMessage(run.promptId))!;
    const providerInput = await this.#store.getProviderInput(threadId, prompt.turnId);
    if (providerInput === null) throw new DomainError("message_not_found", "The prompt is gone.");
    const stoppedTurnId = await this.#stopUnfinished(threadId);
    const turn = await this.#provider.regenerate(threadId, {
      sourceTurnId: prompt.turnId,
      regeneratesId: run.headId,
      providerInput,
    });
    return { turn, stoppedTurnId };
  }

  /** Shows version `version` (1-based) of the message, with the later history it leads to. */
  async selectVersion(
    threadId: string,
    messageId: string,
    version: number,
  ): Promise<ShownMessageResponse> {
    const message = await this.#messageOf(threadId, messageId);
    const versions = await this.#store.versionsOf(message.id);
    const target = versions[version - 1];
    if (!Number.isInteger(version) || version < 1 || target === undefined) {
      throw new DomainError(
        "version_out_of_range",
        `This message has ${versions.length} version(s); there is no version ${version}.`,
        { versions: versions.length },
      );
    }
    await this.#events.atomically(async (w) => {
      await w.tx.selectVersion(target);
      await w.publish(threadId, { type: "thread.path", messageId: target });
    });
    return { messageId: target };
  }

  /** Shows the path through a message (a chip citing a version that is not shown). */
  async show(threadId: string, messageId: string): Promise<ShownMessageResponse> {
    const message = await this.#messageOf(threadId, messageId);
    if (await this.#store.messageShown(message.id)) return { messageId: message.id };
    await this.#events.atomically(async (w) => {
      await w.tx.showMessage(message.id);
      await w.publish(threadId, { type: "thread.path", messageId: message.id });
    });
    return { messageId: message.id };
  }

  /** A new thread with the path shown up to and including the message. */
  async branch(threadId: string, messageId: string): Promise<BranchResponse> {
    const record = await this.#store.getThread(threadId);
    if (!record) throw threadNotFound(threadId);
    const message = await this.#messageOf(threadId, messageId);
    if (!(await this.#store.messageShown(message.id))) {
      throw new DomainError(
        "message_not_shown",
        "Branch from a message that is shown: switch to its version first.",
        { messageId: message.id },
      );
    }
    const { title, branchName } = record.thread;
    const thread = await this.#store.transaction((tx) =>
      tx.branchThread({
        sourceThreadId: threadId,
        messageId: message.id,
        threadId: newId(),
        title: `${title}${BRANCH_TITLE_SUFFIX}`,
        branchName: branchName === null ? null : `${branchName}-branch`,
        now: this.#now(),
      }),
    );
    // Every process's thread list shows the branch (no event on its stream says so).
    await this.#events.announce(thread.id);
    return { thread };
  }

  /** The copy in branch `threadId` of a message it was branched from (at any depth). */
  async copyOf(threadId: string, sourceMessageId: string): Promise<{ messageId: string }> {
    if (!(await this.#store.getThread(threadId))) throw threadNotFound(threadId);
    const copy = await this.#store.copyOf(threadId, sourceMessageId);
    if (copy === null) {
      throw new DomainError(
        "message_not_found",
        `Message "${sourceMessageId}" has no copy in this thread.`,
      );
    }
    return { messageId: copy };
  }

  /** The message, of this thread: 404 when unknown, 400 when it is another thread's. */
  async #messageOf(threadId: string, messageId: string): Promise<Message> {
    const [record, message] = await Promise.all([
      this.#store.getThread(threadId),
      this.#store.getMessage(messageId),
    ]);
    if (!record) throw threadNotFound(threadId);
    if (!message) {
      throw new DomainError("message_not_found", `Message "${messageId}" does not exist.`);
    }
    if (message.threadId !== threadId) {
      throw new DomainError(
        "message_of_other_thread",
        `Message "${messageId}" belongs to another thread.`,
      );
    }
    return message;
  }

  /** Stops every unfinished turn of the thread; the first one's id, or null. */
  async #stopUnfinished(threadId: string): Promise<string | null> {
    const unfinished = await this.#store.unfinishedTurnsOf(threadId);
    for (const turn of unfinished) {
      try {
        await this.#provider.cancelTurn(threadId, turn.id);
      } catch (error) {
        // Ended meanwhile: nothing left to stop.
        if (!(error instanceof DomainError && error.code === "turn_not_running")) throw error;
      }
    }
    return unfinished[0]?.id ?? null;
  }
}
