/** The chunks of one flooded reply (shared by streamingServer.ts and its fake provider). */
export const CHUNKS = 50_000;
export const chunk = (i: number) => `chunk ${String(i).padStart(5, "0")} `;
