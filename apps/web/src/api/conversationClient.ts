/**
 * The endpoints of conversations that change (issue 30, DESIGN.md section 8): edit and resend,
 * regenerate, version switches, showing a version a chip cites, branches and copy lookups.
 * Same request/parse/`ApiError` path as `client.ts`.
 */
import {
  type BranchResponse,
  BranchResponseSchema,
  type EditMessageResponse,
  EditMessageResponseSchema,
  MessageCopySchema,
  type RegenerateResponse,
  RegenerateResponseSchema,
  type ShownMessageResponse,
  ShownMessageResponseSchema,
} from "@app/protocol";
import { request, seg } from "./client.ts";

const messagePath = (threadId: string, messageId: string, action: string) =>
  `/threads/${seg(threadId)}/messages/${seg(messageId)}/${action}`;

/** `POST .../messages/:messageId/edit`: a new version of a sent prompt. */
export function editMessage(
  threadId: string,
  messageId: string,
  input: string,
): Promise<EditMessageResponse> {
  return request(EditMessageResponseSchema, messagePath(threadId, messageId, "edit"), {
    method: "POST",
    body: { input },
  });
}

/** `POST .../messages/:messageId/regenerate`: a new version of an answer. */
export function regenerateMessage(
  threadId: string,
  messageId: string,
): Promise<RegenerateResponse> {
  return request(RegenerateResponseSchema, messagePath(threadId, messageId, "regenerate"), {
    method: "POST",
    body: {},
  });
}

/** `POST .../messages/:messageId/version`: shows version `version` (1-based). */
export function selectMessageVersion(
  threadId: string,
  messageId: string,
  version: number,
): Promise<ShownMessageResponse> {
  return request(ShownMessageResponseSchema, messagePath(threadId, messageId, "version"), {
    method: "POST",
    body: { version },
  });
}

/** `POST .../messages/:messageId/show`: shows the path through a version not shown. */
export function showMessage(threadId: string, messageId: string): Promise<ShownMessageResponse> {
  return request(ShownMessageResponseSchema, messagePath(threadId, messageId, "show"), {
    method: "POST",
    body: {},
  });
}

/** `POST /api/threads/:threadId/branch`: a new thread with the history up to the message. */
export function branchThread(threadId: string, messageId: string): Promise<BranchResponse> {
  return request(BranchResponseSchema, `/threads/${seg(threadId)}/branch`, {
    method: "POST",
    body: { messageId },
  });
}

/** `GET /api/threads/:threadId/copies/:messageId`: a source's copy in this branch, or 404. */
export function messageCopy(
  threadId: string,
  sourceMessageId: string,
  signal?: AbortSignal,
): Promise<{ messageId: string }> {
  return request(
    MessageCopySchema,
    `/threads/${seg(threadId)}/copies/${seg(sourceMessageId)}`,
    signal ? { signal } : undefined,
  );
}
