/**
 * The server's import rules (README "Layers and their rules"), held to the repository's one
 * checker (scripts/importRules.ts, also run by `pnpm cycles`): imports go one way, http → domain →
 * storage, adapters and storage import no other layer, and no module of `src/` imports itself
 * through others. Each rule is also shown to catch the direction it forbids.
 */
import { describe, expect, it } from "vitest";
import {
  cycles,
  edgesOf,
  importGraph,
  layerViolations,
  repoPath,
} from "../../../scripts/importRules.ts";

const SRC = "apps/server/src/";
const graph = importGraph();
const serverEdges = edgesOf(graph).filter(([from]) => from.startsWith(SRC));

/** The forbidden directions the server README claims, as [from layer, to layer]. */
const CLAIMED: readonly [string, string][] = [
  ["http", "storage"],
  ["domain", "http"],
  ["storage", "domain"],
  ["storage", "http"],
  ["storage", "providers"],
  ["providers", "domain"],
  ["providers", "http"],
  ["providers", "storage"],
];

describe("server layers", () => {
  it("finds the modules and their imports", () => {
    expect(serverEdges).toContainEqual([`${SRC}http/app.ts`, `${SRC}domain/errors.ts`]);
  });

  it("checks every forbidden direction it claims, and only in non-test modules", () => {
    for (const [from, to] of CLAIMED) {
      const edge: [string, string] = [`${SRC}${from}/made-up.ts`, `${SRC}${to}/made-up.ts`];
      expect(layerViolations([edge]), `${from} ↛ ${to}`).toHaveLength(1);
      const testEdge: [string, string] = [`${SRC}${from}/made-up.test.ts`, edge[1]];
      expect(layerViolations([testEdge]), `${from} test → ${to}`).toEqual([]);
    }
    // The allowed directions stay allowed.
    for (const [from, to] of [
      ["http", "domain"],
      ["domain", "storage"],
      ["domain", "providers"],
    ]) {
      expect(layerViolations([[`${SRC}${from}/a.ts`, `${SRC}${to}/b.ts`]])).toEqual([]);
    }
  });

  it("keeps http away from storage, domain away from http, and storage and adapters below", () => {
    expect(layerViolations(serverEdges)).toEqual([]);
  });

  it("has no import cycle", () => {
    const server = new Map(
      [...graph]
        .filter(([file]) => repoPath(file).startsWith(SRC))
        .map(([file, targets]) => [file, targets.filter((to) => repoPath(to).startsWith(SRC))]),
    );
    expect(server.size).toBeGreaterThan(50);
    expect(cycles(server).map((component) => component.map(repoPath))).toEqual([]);
  });
});
