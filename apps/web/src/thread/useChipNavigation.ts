/**
 * What a chip click does in this thread: a chip citing another environment cannot be opened here,
 * so it only raises a notice; any other chip routes to its citation (`#assistant-citation=`).
 */
import { useCallback, useState } from "react";
import {
  type AssistantCitationNavigator,
  useAssistantCitationNavigator,
} from "../citations/assistantCitationNavigation.ts";
import { citationScope, OTHER_ENVIRONMENT_NOTICE } from "../citations/citationScope.ts";

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
      routeToCitation(citation, origin, chip);
    },
    [here, routeToCitation],
  );
  const dismissChipNotice = useCallback(() => setChipNotice(null), []);
  return { navigateToCitation, chipNotice, dismissChipNotice };
}
