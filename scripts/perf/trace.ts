/**
 * Reads a Chromium trace recorded with the "toplevel" category (`browser.startTracing`): the
 * top-level tasks of the page's renderer main thread with their wall time (`dur`) and CPU time
 * (`tdur`). On a busy machine a long wall time with little CPU time is the renderer waiting for
 * a core, not app work. The trace and CPU profile types are shared by the profiling scripts.
 */

/** A Chromium trace event (the fields these scripts read). */
export type TraceEvent = {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { functionName?: string; url?: string } };
};

/** A V8 CPU profile as CDP's `Profiler.stop` returns it. */
export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
  positionTicks?: { line: number; ticks: number }[];
}
export interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Top-level tasks of the page's renderer main thread, wall and CPU time in ms. */
export function rendererMainTasks(trace: Buffer): { wall: number; cpu: number }[] {
  const { traceEvents } = JSON.parse(trace.toString("utf8")) as { traceEvents: TraceEvent[] };
  const mainThreads = new Set(
    traceEvents
      .filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain")
      .map((e) => `${e.pid}:${e.tid}`),
  );
  return traceEvents
    .filter(
      (e) =>
        e.ph === "X" &&
        e.name === "ThreadControllerImpl::RunTask" &&
        mainThreads.has(`${e.pid}:${e.tid}`),
    )
    .map((e) => ({ wall: (e.dur ?? 0) / 1000, cpu: (e.tdur ?? 0) / 1000 }));
}
