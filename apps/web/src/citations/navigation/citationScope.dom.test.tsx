import { citationFixture } from "@app/citations/testing";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { AssistantCitationChip } from "../AssistantCitationChip.tsx";
import { CitationHereContext, citationScope, citationScopeLabel } from "./citationScope.ts";

const citation = citationFixture({
  environmentId: "env",
  threadId: "t1",
  messageId: "m1",
  text: "quoted words",
  comment: "look here",
});

afterEach(cleanup);

describe("citationScope", () => {
  it("tells this thread, another thread and another environment apart", () => {
    expect(citationScope(citation, { environmentId: "env", threadId: "t1" })).toBe("local");
    expect(citationScope(citation, { environmentId: "env", threadId: "t2" })).toBe("other-thread");
    expect(citationScope(citation, { environmentId: "env2", threadId: "t1" })).toBe(
      "other-environment",
    );
    expect(citationScope(citation, null)).toBe("local");
  });

  it("names chips by scope, local ones exactly as before", () => {
    expect(citationScopeLabel("local")).toBe("Assistant quote");
    expect(citationScopeLabel("other-thread")).toBe("Assistant quote from another thread");
    expect(citationScopeLabel("other-environment")).toBe(
      "Assistant quote from another environment",
    );
  });

  it("marks a chip citing elsewhere visually and in its accessible name", () => {
    for (const [here, name, scope] of [
      [{ environmentId: "env", threadId: "t1" }, "Assistant quote: look here", "local"],
      [
        { environmentId: "env", threadId: "t9" },
        "Assistant quote from another thread: look here",
        "other-thread",
      ],
      [
        { environmentId: "other", threadId: "t1" },
        "Assistant quote from another environment: look here",
        "other-environment",
      ],
    ] as const) {
      render(
        <CitationHereContext.Provider value={here}>
          <AssistantCitationChip citation={citation} source="[Assistant quote](x)" />
        </CitationHereContext.Provider>,
      );
      const chip = screen.getByRole("link", { name });
      expect(chip.getAttribute("data-citation-scope")).toBe(scope);
      expect(chip.classList.contains("citation-chip--elsewhere")).toBe(scope !== "local");
      cleanup();
    }
  });
});
