import { useEffect, useState } from "react";
import { requestIdle } from "../ui/idle.ts";

/**
 * False until `ready` has been true and the browser then had an idle moment (at most
 * `timeoutMs` later); true from then on. Used to start work that must not compete with the
 * first paint of more important content, such as loading and mounting the composer.
 */
export function useIdleOnce(ready: boolean, timeoutMs = 500): boolean {
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (!ready || done) return;
    return requestIdle(() => setDone(true), timeoutMs);
  }, [ready, done, timeoutMs]);
  return done;
}
