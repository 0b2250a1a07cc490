import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import {
  buildRenderedTextStream,
  domPointToStreamOffset,
  isRenderedTextNode,
  type RenderedTextStream,
  streamOffsetToDomPoint,
  streamRangeToDomRange,
} from "./renderedTextStream.ts";

function mount(html: string): HTMLElement {
  document.body.innerHTML = `<div id="root">${html}</div>`;
  return document.getElementById("root")!;
}

const streamOf = (html: string) => buildRenderedTextStream(mount(html)).text;

/** Checks the structural invariants every stream must keep. */
function expectConsistent(stream: RenderedTextStream): void {
  let at = 0;
  for (const segment of stream.segments) {
    expect(segment.start).toBe(at);
    expect(segment.end).toBeGreaterThan(segment.start);
    const piece = stream.text.slice(segment.start, segment.end);
    if (segment.kind === "separator") {
      expect(segment.node).toBeNull();
      expect(["\n", "\t"]).toContain(piece);
    } else if (segment.kind === "text") {
      expect(piece).toBe(segment.node!.data.slice(segment.nodeStart, segment.nodeEnd));
    } else {
      expect(segment.node).not.toBeNull();
      expect(piece).toBe(" ");
      expect(segment.node!.data.slice(segment.nodeStart, segment.nodeEnd)).toMatch(
        /^[ \t\n\r\f]+$/,
      );
    }
    at = segment.end;
  }
  expect(at).toBe(stream.text.length);
}

afterEach(() => {
  document.body.innerHTML = "";
});

describe("buildRenderedTextStream", () => {
  it("puts exactly one line break between blocks and none at the edges", () => {
    expect(streamOf("<p>One</p><p>Two</p><h2>Three</h2><blockquote><p>Four</p></blockquote>")).toBe(
      "One\nTwo\nThree\nFour",
    );
    // Nested blocks and empty blocks never double the break.
    expect(streamOf("<div><div><p>a</p></div></div><div></div><p></p><div><p>b</p></div>")).toBe(
      "a\nb",
    );
  });

  it("adds one line break per <br>, also where a block boundary follows", () => {
    expect(streamOf("<p>a<br>b<br><br>c</p>")).toBe("a\nb\n\nc");
    expect(streamOf("<p>a<br></p><p>b</p>")).toBe("a\nb");
    expect(streamOf("<p>a</p><p><br></p><p>b</p>")).toBe("a\n\nb");
  });

  it("collapses source whitespace the way the browser displays it", () => {
    // react-markdown keeps soft line breaks and the newlines between list items as text nodes.
    expect(streamOf("<p>line one\nline  two </p>\n<p>\n  next</p>")).toBe(
      "line one line two\nnext",
    );
    expect(streamOf("<p><em>a </em> <strong> b</strong></p>")).toBe("a b");
    // NBSP is displayed, so it is kept.
    expect(streamOf("<p>a\u00a0\u00a0b</p>")).toBe("a\u00a0\u00a0b");
  });

  it("keeps code text, indentation and line breaks of preformatted blocks", () => {
    const html =
      "<p>Run:</p><div class='code-block'><div data-text-stream='skip'><span>ts</span>" +
      "<button>Copy code</button></div><pre><code>if (x) {\n    y();\n}\n</code></pre></div><p>Done</p>";
    expect(streamOf(html)).toBe("Run:\nif (x) {\n    y();\n}\nDone");
    expect(streamOf("<p>Use <code>npm  run</code> now</p>")).toBe("Use npm run now");
    expect(streamOf("<p style='white-space: pre-wrap'>a  b\n c</p>")).toBe("a  b\n c");
    expect(streamOf("<p style='white-space: pre-line'>a  b \n  c</p>")).toBe("a b\nc");
  });

  it("includes link text and nested inline formatting", () => {
    expect(
      streamOf(
        "<p>See <a href='https://x.test'>the <strong>docs <em>here</em></strong></a>, ok</p>",
      ),
    ).toBe("See the docs here, ok");
  });

  it("separates list items by line breaks and leaves CSS markers out", () => {
    expect(
      streamOf("<ul>\n<li>alpha</li>\n<li>beta\n<ul>\n<li>gamma</li>\n</ul>\n</li>\n</ul>"),
    ).toBe("alpha\nbeta\ngamma");
    expect(streamOf("<ol><li><p>one</p></li><li><p>two</p></li></ol>")).toBe("one\ntwo");
  });

  it("separates table cells by a tab and rows by a line break", () => {
    const html =
      "<div class='md-table-scroll'><table>\n<thead>\n<tr>\n<th>Name</th>\n<th>Size</th>\n</tr>\n</thead>" +
      "\n<tbody>\n<tr>\n<td>a</td>\n<td>1</td>\n</tr>\n<tr>\n<td></td>\n<td>2</td>\n</tr>\n</tbody>\n</table></div>";
    expect(streamOf(`<p>Before</p>${html}<p>After</p>`)).toBe("Before\nName\tSize\na\t1\n2\nAfter");
  });

  it("leaves out controls and ignored elements", () => {
    expect(
      streamOf(
        "<p>a<button>Copy</button>b<input value='x'><select><option>o</option></select>" +
          "<textarea>t</textarea><span role='button'>r</span><span data-citation-ignore>i</span>" +
          "<span data-text-stream='skip'>s</span>c</p>",
      ),
    ).toBe("abc");
  });

  it("leaves out editing hosts (contenteditable regions), not their non-editable parts", () => {
    // Regression: text typed into a contenteditable region inside an answer ended up in quotes.
    expect(
      streamOf(
        "<p>a<span contenteditable='true'>typed</span>b<span contenteditable>x</span>" +
          "<span contenteditable='plaintext-only'>y</span><span contenteditable='false'>c</span></p>",
      ),
    ).toBe("abc");
  });

  it("leaves out hidden subtrees", () => {
    expect(
      streamOf(
        "<p>a<span hidden>h</span><span aria-hidden='true'>x</span>" +
          "<span style='display:none'>d</span><span style='visibility:hidden'>v<b style='visibility:visible'>V</b></span>b</p>" +
          "<details><summary>Sum</summary><p>closed</p></details><details open><summary>S2</summary><p>open</p></details>",
      ),
    ).toBe("aVb\nSum\nS2\nopen");
  });

  it("leaves out non-text elements", () => {
    expect(
      streamOf(
        "<p>a<svg><title>icon</title><text>t</text></svg><img alt='alt'><script>s()</script><style>p{}</style>b</p>",
      ),
    ).toBe("ab");
  });

  it("treats elements displayed as blocks or inline by their computed display", () => {
    expect(
      streamOf("<span style='display:block'>a</span><span>b</span><p style='display:inline'>c</p>"),
    ).toBe("a\nbc");
    expect(streamOf("<div style='display:contents'>a</div><span>b</span>")).toBe("ab");
  });

  it("keeps segments contiguous and faithful to the DOM", () => {
    const root = mount(
      "<p>  lead <b>bold</b>\n  tail  </p><pre><code>  x\n y</code></pre><ul>\n<li>i<br>j</li>\n</ul>",
    );
    const stream = buildRenderedTextStream(root);
    expect(stream.text).toBe("lead bold tail\n  x\n y\ni\nj");
    expectConsistent(stream);
  });

  it("handles deeply nested blocks without recursion", () => {
    // jsdom itself recurses (and slows down) on deep trees, so this stays moderate.
    const root = document.createElement("div");
    root.innerHTML = "<p>top</p>";
    let parent: Element = root;
    for (let depth = 0; depth < 400; depth++) {
      const quote = document.createElement("blockquote");
      parent.appendChild(quote);
      parent = quote;
    }
    parent.textContent = "deep";
    expect(buildRenderedTextStream(root).text).toBe("top\ndeep");
  });
});

describe("stream offsets and DOM positions", () => {
  it("maps text offsets both ways", () => {
    const root = mount("<p>Hello <b>big</b> world</p><p>Next</p>");
    const stream = buildRenderedTextStream(root);
    expect(stream.text).toBe("Hello big world\nNext");
    const bold = root.querySelector("b")!.firstChild!;
    expect(domPointToStreamOffset(stream, bold, 1, "start")).toBe(7);
    expect(streamOffsetToDomPoint(stream, 7, "start")).toEqual({ node: bold, offset: 1 });
    for (let offset = 0; offset <= stream.text.length; offset++) {
      for (const affinity of ["start", "end"] as const) {
        const point = streamOffsetToDomPoint(stream, offset, affinity);
        const back = domPointToStreamOffset(stream, point.node, point.offset, affinity);
        // The separator "\n" at [15, 16) is not text: each affinity leans off it.
        if (offset === 15 && affinity === "start") expect(back).toBe(16);
        else if (offset === 16 && affinity === "end") expect(back).toBe(15);
        else expect(back).toBe(offset);
      }
    }
  });

  it("leans points between blocks to the next or previous text", () => {
    const root = mount("<p>ab</p>\n<p>cd</p>");
    const stream = buildRenderedTextStream(root);
    const second = root.querySelectorAll("p")[1]!;
    expect(domPointToStreamOffset(stream, second, 0, "start")).toBe(3);
    expect(domPointToStreamOffset(stream, second, 0, "end")).toBe(2);
    expect(domPointToStreamOffset(stream, root, 1, "end")).toBe(2);
    expect(domPointToStreamOffset(stream, root, 1, "start")).toBe(3);
    expect(domPointToStreamOffset(stream, document.body, 0, "start")).toBe(0);
    expect(domPointToStreamOffset(stream, document.body, 1, "start")).toBe(stream.text.length);
  });

  it("maps a point inside a collapsed run to the run's space", () => {
    const root = mount("<p>a \n b</p>");
    const stream = buildRenderedTextStream(root);
    const text = root.querySelector("p")!.firstChild!;
    expect(stream.text).toBe("a b");
    expect(domPointToStreamOffset(stream, text, 2, "start")).toBe(1);
    expect(domPointToStreamOffset(stream, text, 2, "end")).toBe(2);
    expect(streamOffsetToDomPoint(stream, 2, "start")).toEqual({ node: text, offset: 4 });
    expect(streamOffsetToDomPoint(stream, 2, "end")).toEqual({ node: text, offset: 4 });
  });

  it("builds ranges that cover only displayed text", () => {
    const root = mount("<p>first</p><p>second</p>");
    const stream = buildRenderedTextStream(root);
    expect(streamRangeToDomRange(stream, 2, 9).toString()).toBe("rstsec");
    // A slice that is only a separator collapses.
    expect(streamRangeToDomRange(stream, 5, 6).collapsed).toBe(true);
  });

  it("maps an empty stream to the root", () => {
    const root = mount("<button>x</button>");
    const stream = buildRenderedTextStream(root);
    expect(stream.text).toBe("");
    expect(streamOffsetToDomPoint(stream, 0, "start")).toEqual({ node: root, offset: 1 });
    expect(streamOffsetToDomPoint(stream, 0, "end")).toEqual({ node: root, offset: 0 });
  });
});

describe("isRenderedTextNode", () => {
  it("tells displayed text from controls and hidden text", () => {
    const root = mount(
      "<p>shown</p><button>no</button><div hidden><p>no</p></div><details><summary>yes</summary>no</details>",
    );
    const texts = [...root.querySelectorAll("*")].flatMap((el) =>
      [...el.childNodes].filter((n): n is Text => n.nodeType === Node.TEXT_NODE),
    );
    expect(texts.map((t) => [t.data, isRenderedTextNode(t)])).toEqual([
      ["shown", true],
      ["no", false],
      ["no", false],
      ["no", false],
      ["yes", true],
    ]);
  });
});

const pieceArb = fc.oneof(
  fc.constantFrom("word", "Δx", "😀", "a b", "  ", "\n", " \n\t ", "\u00a0", "x.", ""),
  fc.constantFrom(
    "<br>",
    "<b>bold</b>",
    "<em> it </em>",
    "<code>c  d</code>",
    "<button>no</button>",
  ),
  fc.constantFrom(
    "<span hidden>h</span>",
    "<a href='#'>link</a>",
    "<span aria-hidden='true'>i</span>",
  ),
);
const blockTagArb = fc.constantFrom("p", "pre", "li", "div", "span", "h2", "blockquote");
const docArb = fc.array(
  fc.tuple(blockTagArb, fc.array(pieceArb, { maxLength: 6 })).map(([tag, pieces]) => {
    const inner = pieces.join("");
    return tag === "li" ? `<ul>\n<li>${inner}</li>\n</ul>` : `<${tag}>${inner}</${tag}>`;
  }),
  { maxLength: 6 },
);

describe("rendered-text stream, property-based", () => {
  it("keeps segments faithful and maps every offset to the DOM and back", () => {
    fc.assert(
      fc.property(docArb, (blocks) => {
        const stream = buildRenderedTextStream(mount(blocks.join("\n")));
        expectConsistent(stream);
        const separator = new Array<boolean>(stream.text.length).fill(false);
        for (const s of stream.segments) if (s.kind === "separator") separator[s.start] = true;
        for (let offset = 0; offset <= stream.text.length; offset++) {
          const forward = streamOffsetToDomPoint(stream, offset, "start");
          const start = domPointToStreamOffset(stream, forward.node, forward.offset, "start");
          expect(start).toBeGreaterThanOrEqual(offset);
          for (let i = offset; i < start; i++) expect(separator[i]).toBe(true);
          const backward = streamOffsetToDomPoint(stream, offset, "end");
          const end = domPointToStreamOffset(stream, backward.node, backward.offset, "end");
          expect(end).toBeLessThanOrEqual(offset);
          for (let i = end; i < offset; i++) expect(separator[i]).toBe(true);
        }
      }),
      { numRuns: 120 },
    );
  }, 60_000);
});
