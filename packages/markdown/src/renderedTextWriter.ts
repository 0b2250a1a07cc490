/**
 * The separator and whitespace rules of the rendered-text stream (DESIGN.md section 6), in one
 * writer both readers of rendered text use: apps/web/src/renderedText/renderedTextStream.ts feeds it
 * the text nodes of a live DOM and records a segment per piece (its offset maps), and
 * `renderedText.ts` here feeds it the hast tree the web renders and records nothing. The writer is
 * generic over where a piece comes from (`S`: a DOM `Text` node, or nothing) and over where it is
 * recorded (a {@link SegmentRecorder}); the text it accumulates is the same for both.
 * The web's parity test (apps/web/src/markdown/renderedTextParity.dom.test.tsx) guards it.
 */
import { isCollapsibleCode, type WhiteSpaceMode } from "./renderedTextRules.ts";

/**
 * `"text"`: source units shown one for one. `"space"`: one space standing for a collapsed
 * whitespace run of the source. `"separator"`: a `"\n"` or `"\t"` the layout creates (block
 * boundary, `<br>`, table cell), with no source.
 */
export type RenderedTextSegmentKind = "text" | "space" | "separator";

/**
 * Receives each piece of the stream as it is written: its kind, its stream offsets
 * `[start, end)`, and where it comes from (`source`, `[sourceStart, sourceEnd)` of its data;
 * `null`, 0, 0 for separators).
 */
export type SegmentRecorder<S> = (
  kind: RenderedTextSegmentKind,
  start: number,
  end: number,
  source: S | null,
  sourceStart: number,
  sourceEnd: number,
) => void;

type PendingSpace<S> = { source: S; start: number; end: number };

/** Accumulates the stream's text, applying the separator rules; records each piece if asked. */
export class RenderedTextWriter<S = null> {
  private readonly parts: string[] = [];
  private length = 0;
  private lastCode = -1;
  private pendingBreak: "" | "\n" | "\t" = "";
  private pendingSpace: PendingSpace<S> | null = null;
  /** At the start of the stream, of a line or of a cell: collapsible whitespace shows as nothing. */
  private atLineStart = true;

  constructor(private readonly record?: SegmentRecorder<S>) {}

  get text(): string {
    return this.parts.join("");
  }

  /** A block boundary: one `"\n"` before the next displayed text, if any text came before. */
  requestLineBreak(): void {
    if (this.length > 0) this.pendingBreak = "\n";
  }

  /** A table cell boundary: one `"\t"` unless a line break is already due. */
  requestCellBreak(): void {
    if (this.length > 0 && this.pendingBreak === "") this.pendingBreak = "\t";
  }

  /** `<br>`: always one `"\n"`, a separator. */
  forcedLineBreak(): void {
    this.lineFeed(null, 0);
  }

  /**
   * Text `data` shown in `mode` (a DOM text node's data, or text a component renders), read from
   * `source`; the recorded pieces give their place in `data`.
   */
  write(data: string, mode: WhiteSpaceMode, source: S): void {
    const length = data.length;
    if (mode === "preserve") {
      this.literal(data, 0, length, source);
      return;
    }
    let i = 0;
    while (i < length) {
      if (isCollapsibleCode(data.charCodeAt(i))) {
        let j = i;
        while (j < length && isCollapsibleCode(data.charCodeAt(j))) j++;
        if (mode === "preserve-breaks") {
          // Line feeds stay; the spaces and tabs around them collapse.
          let from = i;
          for (let k = i; k < j; k++) {
            if (data.charCodeAt(k) !== 10) continue;
            this.lineFeed(source, k);
            from = k + 1;
          }
          if (from < j) this.collapsibleWhitespace(source, from, j);
        } else {
          this.collapsibleWhitespace(source, i, j);
        }
        i = j;
        continue;
      }
      // One literal piece runs over single spaces between words, so ordinary prose is one segment.
      let j = i;
      for (;;) {
        while (j < length && !isCollapsibleCode(data.charCodeAt(j))) j++;
        if (
          j + 1 < length &&
          data.charCodeAt(j) === 32 &&
          !isCollapsibleCode(data.charCodeAt(j + 1))
        ) {
          j++;
          continue;
        }
        break;
      }
      this.literal(data, i, j, source);
      i = j;
    }
  }

  /** One `"\n"`: a separator (`source` null) or a preserved line feed at `at` of `source`. */
  private lineFeed(source: S | null, at: number): void {
    this.pendingSpace = null;
    this.flush();
    if (source !== null) this.push("text", "\n", source, at, at + 1);
    else this.push("separator", "\n", null, 0, 0);
    this.atLineStart = true;
  }

  /** Collapsible whitespace `[start, end)` of `source`: one space if text follows on this line. */
  private collapsibleWhitespace(source: S, start: number, end: number): void {
    if (this.atLineStart && this.pendingBreak === "") return;
    if (this.pendingSpace === null) this.pendingSpace = { source, start, end };
  }

  /** Displayed text: `data.slice(start, end)`, unit by unit. */
  private literal(data: string, start: number, end: number, source: S): void {
    if (end <= start) return;
    this.flush();
    this.push("text", data.slice(start, end), source, start, end);
    this.atLineStart = this.lastCode === 10;
  }

  private flush(): void {
    if (this.pendingBreak !== "") {
      // Whitespace before a break and at the start of the next line is not displayed.
      this.pendingSpace = null;
      if (!(this.pendingBreak === "\n" && this.lastCode === 10)) {
        this.push("separator", this.pendingBreak, null, 0, 0);
      }
      this.pendingBreak = "";
      this.atLineStart = true;
    }
    const space = this.pendingSpace;
    if (space !== null) {
      this.pendingSpace = null;
      if (!this.atLineStart) this.push("space", " ", space.source, space.start, space.end);
    }
  }

  private push(
    kind: RenderedTextSegmentKind,
    text: string,
    source: S | null,
    sourceStart: number,
    sourceEnd: number,
  ): void {
    const start = this.length;
    this.length += text.length;
    this.parts.push(text);
    this.lastCode = text.charCodeAt(text.length - 1);
    this.record?.(kind, start, this.length, source, sourceStart, sourceEnd);
  }
}
