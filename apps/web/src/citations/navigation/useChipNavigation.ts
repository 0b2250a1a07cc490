/**
 * What a chip click does in this thread: a chip citing another environment cannot be opened here,
 * so it only raises a notice; any other chip routes to its citation (`#assistant-citation=`). In
 * a branch, a chip whose source was copied into it routes to the copy (`GET .../copies/:id`).
 */
import { useCallback, useState } from "react";
import { messageCopy } from "../../api/conversationClient.ts";
import {
  type AssistantCitationNavigator,
  useAssistantCitationNavigator,
} from "./assistantCitationNavigation.ts";
import { citationScope, OTHER_ENVIRONMENT_NOTICE } from "./citationScope.ts";

/** The notice to show (its `id` changes per click, so a repeated notice re-announces). */
export type ChipNotice = { id: number; text: string };

/** The navigator chips call, and the notice it may raise. */
export function useChipNavigation(here: { environmentId: string; threadId: string }): {
  navigateToCitation: AssistantCitationNavigator;
  chipNotice: ChipNotice | null;
  dismissChipNotice: () => void;
} {
  const [chipNotice, setChipNotice] = useState<ChipNotice | null>(null);
  const routeToCitation = useAssistantCitationNavigator({ threadId: here.threadId });
  const navigateToCitation = useCallback<AssistantCitationNavigator>(
    (citation, origin, chip) => {
      if (citationScope(citation, here) === "other-environment") {
        setChipNotice((current) => ({
          id: (current?.id ?? 0) + 1,
          text: OTHER_ENVIRONMENT_NOTICE,
        }));
        return;
      }
      setChipNotice(null);
      if (citationScope(citation, here) !== "other-thread") {
        routeToCitation(citation, origin, chip);
        return;
      }
      // A branch (issue 30): a source copied into this thread is read here, not in its original.
      messageCopy(here.threadId, citation.messageId).then(
        (copy) =>
          routeToCitation(
            { ...citation, threadId: here.threadId, messageId: copy.messageId },
            origin,
            chip,
          ),
        () => routeToCitation(citation, origin, chip),
      );
    },
    [here, routeToCitation],
  );
  const dismissChipNotice = useCallback(() => setChipNotice(null), []);
  return { navigateToCitation, chipNotice, dismissChipNotice };
}
