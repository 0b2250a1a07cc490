import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach, vi } from "vitest";

// jsdom has no scrolling; TanStack Router calls window.scrollTo on navigation.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
afterEach(() => cleanup());
