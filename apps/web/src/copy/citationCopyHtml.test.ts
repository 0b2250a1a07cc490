import { citationLinkFixture } from "@app/citations/testing";
import { describe, expect, it } from "vitest";
import { citationCopyHtml } from "./citationCopyHtml.ts";

const link = (text: string, comment?: string) =>
  citationLinkFixture({ text, ...(comment === undefined ? {} : { comment }) });

describe("citationCopyHtml", () => {
  it("is null without citation links (plain text says it all)", () => {
    expect(citationCopyHtml("Just **Markdown**\n\nand more")).toBeNull();
    expect(citationCopyHtml("[Assistant quote](t3-citation://v2/x)")).toBeNull();
  });

  it("turns each chip into a blockquote with its comment below, text around into paragraphs", () => {
    const text = `Look at this: ${link("first line\nsecond <line>", "  Why is this bold?  ")} and tell me.\n\nThen ${link("plain & simple")}`;
    expect(citationCopyHtml(text)).toBe(
      "<p>Look at this:</p>" +
        "<blockquote><p>first line<br>second &lt;line&gt;</p></blockquote>" +
        "<p>Why is this bold?</p>" +
        "<p>and tell me.</p><p>Then</p>" +
        "<blockquote><p>plain &amp; simple</p></blockquote>",
    );
  });

  it("never lets quote or comment inject markup, and never shows the raw link", () => {
    const html = citationCopyHtml(link(`<img src=x onerror="alert(1)">`, "<script>x</script>"))!;
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<script");
    expect(html).not.toContain("t3-citation://");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });

  it("treats a blank comment as none", () => {
    expect(citationCopyHtml(link("quote", "   "))).toBe("<blockquote><p>quote</p></blockquote>");
  });
});
