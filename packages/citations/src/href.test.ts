import { describe, expect, it } from "vitest";
import { referenceHref, sampleCitation } from "./__fixtures__/citations.ts";
import { ASSISTANT_CITATION_MAX_HREF_LENGTH } from "./constants.ts";
import { formatAssistantCitationHref, parseAssistantCitationHref } from "./href.ts";
import type { AssistantCitation } from "./schema.ts";

/** A citation whose href pins every encoding rule; the expected bytes are written out literally. */
const pinned: AssistantCitation = {
  version: 1,
  environmentId: "env 1",
  threadId: "thread(1)",
  messageId: "msg!*'",
  text: "Hello, world! 50% *done* ~ok~\nnext line\u00e9",
  start: 12,
  end: 41,
  prefix: "Say: ",
  suffix: " & more",
};
const PINNED_HREF =
  "t3-citation://v1/env%201/thread%281%29/msg%21%2A%27" +
  "?text=Hello%2C+world%21+50%25+*done*+%7Eok%7E%0Anext+line%C3%A9" +
  "&start=12&end=41&prefix=Say%3A+&suffix=+%26+more";

const SAMPLE_HREF =
  "t3-citation://v1/env-1/thread-1/message-1?text=quoted+text&start=4&end=15&prefix=the+&suffix=+here";

/** Builds an href from raw (already encoded) path and query parts. */
const rawHref = (path: string, query: string) => `t3-citation://v1/${path}?${query}`;
const VALID_QUERY = "text=quoted+text&start=4&end=15&prefix=the+&suffix=+here";

describe("formatAssistantCitationHref", () => {
  it("writes the legacy T3 Code bytes for a citation without a comment", () => {
    expect(formatAssistantCitationHref(pinned)).toBe(PINNED_HREF);
    expect(formatAssistantCitationHref(sampleCitation)).toBe(SAMPLE_HREF);
  });

  it("matches URLSearchParams and the segment encoding byte for byte", () => {
    expect(formatAssistantCitationHref(pinned)).toBe(referenceHref(pinned));
    const withComment = { ...pinned, comment: "Why? 😀 <b>&</b>" };
    expect(formatAssistantCitationHref(withComment)).toBe(referenceHref(withComment));
  });

  it("appends the comment last and only when present, keeping an empty comment", () => {
    expect(formatAssistantCitationHref({ ...pinned, comment: "Why? 😀" })).toBe(
      `${PINNED_HREF}&comment=Why%3F+%F0%9F%98%80`,
    );
    expect(formatAssistantCitationHref({ ...pinned, comment: "" })).toBe(`${PINNED_HREF}&comment=`);
    expect(formatAssistantCitationHref({ ...pinned, comment: undefined })).toBe(PINNED_HREF);
  });

  it("writes dot segments as %2E so they survive URL normalization", () => {
    const href = formatAssistantCitationHref({
      ...sampleCitation,
      environmentId: ".",
      threadId: "..",
      messageId: "...",
    });
    expect(href.startsWith("t3-citation://v1/%2E/%2E%2E/.../?")).toBe(false);
    expect(href.startsWith("t3-citation://v1/%2E/%2E%2E/...?")).toBe(true);
  });

  it("encodes slashes, question marks, hashes and percent signs inside ids", () => {
    const href = formatAssistantCitationHref({
      ...sampleCitation,
      environmentId: "a/b",
      threadId: "c?d#e",
      messageId: "50% +",
    });
    expect(href.startsWith("t3-citation://v1/a%2Fb/c%3Fd%23e/50%25%20%2B?")).toBe(true);
  });

  it("keeps a leading byte order mark", () => {
    const href = formatAssistantCitationHref({ ...sampleCitation, text: "\uFEFFquote" });
    expect(href).toContain("text=%EF%BB%BFquote&");
  });

  it("throws a clear error for an invalid citation", () => {
    expect(() => formatAssistantCitationHref({ ...sampleCitation, text: "   " })).toThrow(
      /Invalid assistant citation: text/,
    );
    expect(() => formatAssistantCitationHref({ ...sampleCitation, start: 15, end: 15 })).toThrow(
      /end must be greater than start/,
    );
    expect(() =>
      formatAssistantCitationHref({ ...sampleCitation, extra: 1 } as unknown as AssistantCitation),
    ).toThrow(/Invalid assistant citation/);
    expect(() => formatAssistantCitationHref({ ...sampleCitation, threadId: "\uD800" })).toThrow(
      /threadId must be well-formed UTF-16/,
    );
  });
});

describe("parseAssistantCitationHref accepts", () => {
  it("the pinned legacy bytes", () => {
    expect(parseAssistantCitationHref(PINNED_HREF)).toStrictEqual(pinned);
  });

  it("keys in any order and offsets with leading zeros", () => {
    const href = rawHref(
      "env-1/thread-1/message-1",
      "suffix=+here&end=0015&prefix=the+&start=0000000000000004&text=quoted+text",
    );
    expect(parseAssistantCitationHref(href)).toStrictEqual(sampleCitation);
  });

  it("percent-encoded keys, %20 for spaces and lowercase hex", () => {
    const href = rawHref(
      "env%2d1/thread-1/message-1",
      "%74ext=quoted%20text&start=4&end=15&prefix=the%20&suffix=%20here",
    );
    expect(parseAssistantCitationHref(href)).toStrictEqual(sampleCitation);
  });

  it("an empty comment and keeps it", () => {
    expect(parseAssistantCitationHref(`${SAMPLE_HREF}&comment=`)).toStrictEqual({
      ...sampleCitation,
      comment: "",
    });
  });

  it("a plus sign in a path segment as a literal plus", () => {
    const href = rawHref("env+1/thread-1/message-1", VALID_QUERY);
    expect(parseAssistantCitationHref(href)?.environmentId).toBe("env+1");
  });

  it("and keeps a leading U+FEFF in decoded values", () => {
    const href = rawHref(
      "%EF%BB%BFenv/thread-1/message-1",
      VALID_QUERY.replace("text=", "text=%EF%BB%BF"),
    );
    const parsed = parseAssistantCitationHref(href);
    expect(parsed?.environmentId).toBe("\uFEFFenv");
    expect(parsed?.text).toBe("\uFEFFquoted text");
  });

  it("encoded dot segments", () => {
    const parsed = parseAssistantCitationHref(rawHref("%2E/%2E%2E/%2e", VALID_QUERY));
    expect([parsed?.environmentId, parsed?.threadId, parsed?.messageId]).toEqual([".", "..", "."]);
  });
});

describe("parseAssistantCitationHref rejects", () => {
  const rejected: Array<[string, string]> = [
    ["another scheme", SAMPLE_HREF.replace("t3-citation:", "https:")],
    ["an upper-case scheme", SAMPLE_HREF.replace("t3-citation:", "T3-citation:")],
    ["an upper-case version", SAMPLE_HREF.replace("/v1/", "/V1/")],
    ["another host", SAMPLE_HREF.replace("//v1/", "//example.com/v1/")],
    ["version 2", SAMPLE_HREF.replace("/v1/", "/v2/")],
    ["credentials", SAMPLE_HREF.replace("//v1/", "//user:pass@v1/")],
    ["a user name", SAMPLE_HREF.replace("//v1/", "//user@v1/")],
    ["a port", SAMPLE_HREF.replace("//v1/", "//v1:8080/")],
    ["an empty port", SAMPLE_HREF.replace("//v1/", "//v1:/")],
    ["a fragment", `${SAMPLE_HREF}#frag`],
    ["an empty fragment", `${SAMPLE_HREF}#`],
    ["a hash inside a value", SAMPLE_HREF.replace("quoted+text", "quoted#text")],
    ["two path segments", rawHref("env-1/thread-1", VALID_QUERY)],
    ["four path segments", rawHref("env-1/thread-1/message-1/extra", VALID_QUERY)],
    ["a trailing slash", rawHref("env-1/thread-1/message-1/", VALID_QUERY)],
    ["an empty segment", rawHref("env-1//message-1", VALID_QUERY)],
    ["a literal dot segment", rawHref("./thread-1/message-1", VALID_QUERY)],
    ["a literal dot-dot segment", rawHref("env-1/../message-1", VALID_QUERY)],
    ["a blank id", rawHref("%20%20/thread-1/message-1", VALID_QUERY)],
    ["no query", "t3-citation://v1/env-1/thread-1/message-1"],
    ["an empty query", "t3-citation://v1/env-1/thread-1/message-1?"],
    ["malformed encoding in the path", rawHref("env%zz/thread-1/message-1", VALID_QUERY)],
    ["a truncated escape in the path", rawHref("env%2/thread-1/message-1", VALID_QUERY)],
    ["invalid UTF-8 in the path", rawHref("env%C3/thread-1/message-1", VALID_QUERY)],
    ["an encoded lone surrogate in the path", rawHref("%ED%A0%80/thread-1/message-1", VALID_QUERY)],
    ["a raw lone surrogate in the path", rawHref("\uD800/thread-1/message-1", VALID_QUERY)],
    ["malformed encoding in a value", SAMPLE_HREF.replace("quoted+text", "quoted%+text")],
    ["invalid UTF-8 in a value", SAMPLE_HREF.replace("quoted+text", "quoted%FF")],
    ["malformed encoding in a key", SAMPLE_HREF.replace("text=", "te%xt=")],
    ["a missing text", SAMPLE_HREF.replace("text=quoted+text&", "")],
    ["a missing start", SAMPLE_HREF.replace("&start=4", "")],
    ["a missing end", SAMPLE_HREF.replace("&end=15", "")],
    ["a missing prefix", SAMPLE_HREF.replace("&prefix=the+", "")],
    ["a missing suffix", SAMPLE_HREF.replace("&suffix=+here", "")],
    ["an unknown key", `${SAMPLE_HREF}&extra=1`],
    ["an unknown empty key", `${SAMPLE_HREF}&=1`],
    ["a duplicate key", `${SAMPLE_HREF}&start=4`],
    ["a duplicate key that differs before decoding", `${SAMPLE_HREF}&%73tart=4`],
    ["two comments", `${SAMPLE_HREF}&comment=a&comment=b`],
    ["two empty comments", `${SAMPLE_HREF}&comment=&comment=`],
    ["an empty && part", SAMPLE_HREF.replace("&start", "&&start")],
    ["a trailing &", `${SAMPLE_HREF}&`],
    ["a key without =", `${SAMPLE_HREF}&comment`],
    ["a negative start", SAMPLE_HREF.replace("start=4", "start=-4")],
    ["a signed start", SAMPLE_HREF.replace("start=4", "start=%2B4")],
    ["a fractional end", SAMPLE_HREF.replace("end=15", "end=15.0")],
    ["an exponent", SAMPLE_HREF.replace("end=15", "end=1e3")],
    ["a hex number", SAMPLE_HREF.replace("end=15", "end=0x1F")],
    ["an empty number", SAMPLE_HREF.replace("end=15", "end=")],
    ["a number with spaces", SAMPLE_HREF.replace("end=15", "end=+15")],
    ["full-width digits", SAMPLE_HREF.replace("end=15", "end=%EF%BC%91%EF%BC%95")],
    ["17 digits", SAMPLE_HREF.replace("end=15", "end=00000000000000015")],
    ["an unsafe integer", SAMPLE_HREF.replace("end=15", "end=9007199254740992")],
    ["end equal to start", SAMPLE_HREF.replace("end=15", "end=4")],
    ["end before start", SAMPLE_HREF.replace("end=15", "end=3")],
    ["a whitespace-only quote", SAMPLE_HREF.replace("quoted+text", "+%09%0A+")],
    ["an empty quote", SAMPLE_HREF.replace("quoted+text", "")],
  ];

  it.each(rejected)("%s", (_name, href) => {
    expect(parseAssistantCitationHref(href)).toBeNull();
  });

  it("the unmodified sample, so every rejection above is caused by its change", () => {
    expect(parseAssistantCitationHref(SAMPLE_HREF)).toStrictEqual(sampleCitation);
  });

  it("non-string input without throwing", () => {
    for (const value of [undefined, null, 42, {}, ["t3-citation://v1/"]]) {
      expect(parseAssistantCitationHref(value as unknown as string)).toBeNull();
    }
  });

  it("an href over 160,000 characters before looking at it", () => {
    const padded = `${SAMPLE_HREF}&comment=${"a".repeat(ASSISTANT_CITATION_MAX_HREF_LENGTH)}`.slice(
      0,
      ASSISTANT_CITATION_MAX_HREF_LENGTH + 1,
    );
    expect(padded).toHaveLength(160_001);
    expect(parseAssistantCitationHref(padded)).toBeNull();
  });
});
