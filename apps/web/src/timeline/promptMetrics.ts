/**
 * Reads how a prompt bubble lays out its text (font and the width it may take) off a prompt
 * row in the page, and measures text in that font on a canvas, for `rowSizeClass`. Measuring
 * a word on a canvas costs microseconds and no layout; the result is cached per font.
 */
import type { PromptMetrics } from "./plainTextLines.ts";

const widthCaches = new Map<string, Map<string, number>>();
let context: CanvasRenderingContext2D | null | undefined;

function canvasContext(): CanvasRenderingContext2D | null {
  if (context === undefined) context = document.createElement("canvas").getContext("2d");
  return context;
}

const px = (value: string) => Number.parseFloat(value) || 0;

/**
 * The metrics of the first prompt bubble mounted under `root`, or null when there is none or
 * its layout is not one this prediction covers (no layout yet, letter or word spacing set).
 */
export function readPromptMetrics(root: HTMLElement): PromptMetrics | null {
  const body = root.querySelector<HTMLElement>(".message--user .message__body");
  const row = body?.parentElement;
  if (!body || !row || row.clientWidth === 0) return null;
  const text = body.querySelector("p") ?? body;
  const textStyle = getComputedStyle(text);
  if (textStyle.letterSpacing !== "normal" || textStyle.wordSpacing !== "0px") return null;
  const rowStyle = getComputedStyle(row);
  const rowContent = row.clientWidth - px(rowStyle.paddingLeft) - px(rowStyle.paddingRight);
  const bodyStyle = getComputedStyle(body);
  const { maxWidth } = bodyStyle;
  let limit = Number.POSITIVE_INFINITY;
  if (maxWidth.endsWith("%")) limit = (px(maxWidth) / 100) * rowContent;
  else if (maxWidth.endsWith("px")) limit = px(maxWidth);
  const insets =
    px(bodyStyle.paddingLeft) +
    px(bodyStyle.paddingRight) +
    px(bodyStyle.borderLeftWidth) +
    px(bodyStyle.borderRightWidth);
  // A max-width counts the padding and border only with border-box sizing.
  const available =
    bodyStyle.boxSizing === "border-box"
      ? Math.min(limit, rowContent) - insets
      : Math.min(limit, rowContent - insets);
  const { font } = textStyle;
  const ctx = canvasContext();
  if (ctx === null || font === "" || !(available > 0)) return null;
  const widths = widthCaches.get(font) ?? new Map<string, number>();
  widthCaches.set(font, widths);
  return {
    key: `${font}|${available.toFixed(2)}`,
    maxWidth: available,
    widthOf(word) {
      let width = widths.get(word);
      if (width === undefined) {
        ctx.font = font;
        width = ctx.measureText(word).width;
        if (widths.size > 20_000) widths.clear();
        widths.set(word, width);
      }
      return width;
    },
  };
}
