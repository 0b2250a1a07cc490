/**
 * Which precompressed variant of a static file a request may get, from its `Accept-Encoding`
 * (RFC 9110 §12.5.3): codings with `q=0` are refused, `*` stands for every coding not named,
 * and among equal weights brotli comes before gzip (smaller files).
 */
export type PrecompressedEncoding = "br" | "gzip";

/** Our codings in the order we prefer them at equal weight, with their file suffixes. */
export const PRECOMPRESSED: readonly { encoding: PrecompressedEncoding; suffix: string }[] = [
  { encoding: "br", suffix: ".br" },
  { encoding: "gzip", suffix: ".gz" },
];

/** The codings of {@link PRECOMPRESSED} the header accepts, best first. */
export function acceptedEncodings(header: string | undefined): PrecompressedEncoding[] {
  if (!header) return [];
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.split(";");
    const coding = name.trim().toLowerCase();
    if (coding === "") continue;
    let q = 1;
    for (const param of params) {
      const [key = "", value = ""] = param.split("=");
      if (key.trim().toLowerCase() === "q") {
        const parsed = Number(value.trim());
        q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 0;
      }
    }
    const key = coding === "x-gzip" ? "gzip" : coding;
    // A coding named twice keeps its best weight.
    weights.set(key, Math.max(weights.get(key) ?? 0, q));
  }
  const any = weights.get("*");
  return PRECOMPRESSED.map(({ encoding }, rank) => ({
    encoding,
    rank,
    q: weights.get(encoding) ?? any ?? 0,
  }))
    .filter((c) => c.q > 0)
    .sort((x, y) => y.q - x.q || x.rank - y.rank)
    .map((c) => c.encoding);
}
