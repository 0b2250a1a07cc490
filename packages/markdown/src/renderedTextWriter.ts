/**
 * The separator and whitespace rules of the rendered-text stream (DESIGN.md section 6), as
 * apps/web/src/citations/renderedTextStream.ts applies them to a live DOM (its `StreamWriter` and
 * `writeText`), without the DOM: this writer only accumulates text. Keep the two in step; the
 * web's parity test (apps/web/src/markdown/renderedTextParity.dom.test.tsx) compares them.
 */

/** How a text run's whitespace shows: CSS `white-space` reduced to what the stream needs. */
export type WhiteSpaceMode = "collapse" | "preserve" | "preserve-breaks";

/** Space, tab, LF, FF, CR: the whitespace CSS collapses (NBSP is not among them). */
function isCollapsibleCode(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 12 || code === 13;
}

/** Accumulates the stream's text, applying the separator rules. */
export class RenderedTextWriter {
  private readonly parts: string[] = [];
  private length = 0;
  private lastCode = -1;
  private pendingBreak: "" | "\n" | "\t" = "";
  private pendingSpace = false;
  /** At the start of the stream, of a line or of a cell: collapsible whitespace shows as nothing. */
  private atLineStart = true;

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

  /** `<br>` or a preserved line feed: always one `"\n"`. */
  forcedLineBreak(): void {
    this.pendingSpace = false;
    this.flush();
    this.push("\n");
    this.atLineStart = true;
  }

  /** Text shown in `mode` (a DOM text node's data, or text a component renders). */
  write(data: string, mode: WhiteSpaceMode): void {
    if (mode === "preserve") {
      this.literal(data);
      return;
    }
    const length = data.length;
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
            this.forcedLineBreak();
            from = k + 1;
          }
          if (from < j) this.collapsibleWhitespace();
        } else {
          this.collapsibleWhitespace();
        }
        i = j;
        continue;
      }
      let j = i;
      while (j < length && !isCollapsibleCode(data.charCodeAt(j))) j++;
      this.literal(data.slice(i, j));
      i = j;
    }
  }

  private collapsibleWhitespace(): void {
    if (this.atLineStart && this.pendingBreak === "") return;
    this.pendingSpace = true;
  }

  private literal(text: string): void {
    if (text === "") return;
    this.flush();
    this.push(text);
    this.atLineStart = this.lastCode === 10;
  }

  private flush(): void {
    if (this.pendingBreak !== "") {
      // Whitespace before a break and at the start of the next line is not displayed.
      this.pendingSpace = false;
      if (!(this.pendingBreak === "\n" && this.lastCode === 10)) this.push(this.pendingBreak);
      this.pendingBreak = "";
      this.atLineStart = true;
    }
    if (this.pendingSpace) {
      this.pendingSpace = false;
      if (!this.atLineStart) this.push(" ");
    }
  }

  private push(text: string): void {
    this.length += text.length;
    this.parts.push(text);
    this.lastCode = text.charCodeAt(text.length - 1);
  }
}
