import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterAll, afterEach, vi } from "vitest";

// jsdom has no scrolling; TanStack Router calls window.scrollTo on navigation.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
afterEach(() => cleanup());

/**
 * The project's files share one jsdom window (`isolate: false` in vitest.config.ts), and this
 * file runs again before each of them. After each file the window is left as a new one would
 * be: storage, body, <html> attributes, URL, stubbed globals, spies, timers, and the DOM
 * prototypes that tests patch (`Range.prototype.getBoundingClientRect = ...`) as jsdom made them.
 */
const PATCHED_PROTOTYPES: object[] = [
  Range.prototype,
  Selection.prototype,
  Node.prototype,
  Element.prototype,
  HTMLElement.prototype,
  HTMLInputElement.prototype,
  HTMLTextAreaElement.prototype,
  Document.prototype,
];
type Pristine = Map<object, Map<PropertyKey, PropertyDescriptor>>;
const holder = globalThis as { __pristinePrototypes?: Pristine };
holder.__pristinePrototypes ??= new Map(
  PATCHED_PROTOTYPES.map((proto) => [
    proto,
    new Map(
      Reflect.ownKeys(proto).map((key) => [key, Object.getOwnPropertyDescriptor(proto, key)!]),
    ),
  ]),
);
const pristine = holder.__pristinePrototypes;
const startUrl = new URL("/", window.location.href).href;

function restorePrototypes(): void {
  for (const [proto, descriptors] of pristine) {
    for (const key of Reflect.ownKeys(proto)) {
      if (!descriptors.has(key)) Reflect.deleteProperty(proto, key);
    }
    for (const [key, was] of descriptors) {
      const now = Object.getOwnPropertyDescriptor(proto, key);
      if (now?.value !== was.value || now?.get !== was.get || now?.set !== was.set) {
        Object.defineProperty(proto, key, was);
      }
    }
  }
}

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  restorePrototypes();
  localStorage.clear();
  sessionStorage.clear();
  document.body.replaceChildren();
  for (const element of [document.documentElement, document.body]) {
    for (const { name } of [...element.attributes]) element.removeAttribute(name);
  }
  window.history.replaceState(null, "", startUrl);
});
