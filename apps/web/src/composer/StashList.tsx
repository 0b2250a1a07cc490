/** The "Stashed drafts (N)" disclosure under the composer; renders nothing when N is 0. */
import type { JSX } from "react";
import { type StashedDraft, stashPreview } from "./composerStorage.ts";

/** Props of {@link StashList}. */
export type StashListProps = {
  stashes: StashedDraft[];
  /** The composer's thread: entries from other threads are marked. */
  threadId: string;
  onRestore(id: string): void;
  onDelete(id: string): void;
};

export function StashList({
  stashes,
  threadId,
  onRestore,
  onDelete,
}: StashListProps): JSX.Element | null {
  if (stashes.length === 0) return null;
  return (
    <details className="composer-stash">
      <summary>Stashed drafts ({stashes.length})</summary>
      <ul aria-label="Stashed drafts">
        {stashes.map((stash) => (
          <li key={stash.id} className="composer-stash__item">
            <span className="composer-stash__preview" title={stashPreview(stash.text)}>
              {stashPreview(stash.text) || "(blank)"}
            </span>
            {stash.threadId !== threadId && (
              <span className="composer-stash__origin"> (other thread)</span>
            )}
            <button type="button" onClick={() => onRestore(stash.id)}>
              Restore
            </button>
            <button type="button" onClick={() => onDelete(stash.id)}>
              Delete
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
