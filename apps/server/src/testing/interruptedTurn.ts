import { join } from "node:path";
import { openDatabase } from "../storage/db.ts";
import { createChatRepository } from "../storage/repository.ts";

/**
 * Writes what a killed process leaves behind into `dataDir/chat.sqlite`: thread `t1` with a
 * started (claimed) turn `turn1` (prompt `m1`, "hello") and a half-written streaming answer
 * `m2` ("half"), then one queued turn, never started, per entry of `queued` (`queued-1`, ...).
 */
export function seedInterruptedTurn(dataDir: string, queued: string[] = []): void {
  const db = openDatabase(join(dataDir, "chat.sqlite"));
  try {
    const repo = createChatRepository(db);
    repo.createThread({ id: "t1", title: null, now: "2026-01-01T00:00:00.000Z" });
    repo.insertTurnWithPrompt({
      threadId: "t1",
      turnId: "turn1",
      messageId: "m1",
      text: "hello",
      providerInput: "hello",
      now: "2026-01-01T00:00:01.000Z",
    });
    repo.claimTurn("turn1", "a-killed-process", 60_000);
    repo.insertAssistantMessage({
      id: "m2",
      threadId: "t1",
      turnId: "turn1",
      kind: "answer",
      text: "half",
      status: "streaming",
      now: "2026-01-01T00:00:02.000Z",
    });
    queued.forEach((text, i) => {
      repo.insertTurnWithPrompt({
        threadId: "t1",
        turnId: `queued-${i + 1}`,
        messageId: `q${i + 1}`,
        text,
        providerInput: text,
        now: `2026-01-01T00:00:0${3 + i}.000Z`,
      });
    });
  } finally {
    db.close();
  }
}
