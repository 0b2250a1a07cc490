/**
 * The composer on screen (a thread's or the home page's), for what lives outside its view and
 * writes into it: a result of search all threads cites into it. The view that shows a composer
 * registers a getter while mounted; the last one registered wins.
 */
import type { ComposerHandle } from "./Composer.tsx";

type Getter = () => ComposerHandle | null;
let current: Getter | null = null;

/** Registers the view's composer; returns the unregister function. */
export function registerActiveComposer(getter: Getter): () => void {
  current = getter;
  return () => {
    if (current === getter) current = null;
  };
}

/** The composer on screen, or null (none mounted, or not loaded yet). */
export function activeComposer(): ComposerHandle | null {
  return current?.() ?? null;
}
