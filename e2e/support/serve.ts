/**
 * The rig server as a process of its own, for the perf scripts (scripts/perf/rig.ts):
 * `node --import tsx e2e/support/serve.ts`. Starts {@link startRigServer} on E2E_PORT, writes
 * the state file (rig.ts `STATE_FILE`), and on SIGTERM/SIGINT stops the server and removes the
 * temporary DATA_DIR and the state file. (The e2e workers start their rig in-process instead:
 * support/fixtures.ts.)
 */
import { rmSync, writeFileSync } from "node:fs";
import { E2E_PORT, type RigServer, STATE_FILE } from "./rig.ts";
import { startRigServer } from "./rigServer.ts";

rmSync(STATE_FILE, { force: true });
let rig: RigServer;
try {
  rig = await startRigServer({ port: E2E_PORT });
} catch (error) {
  console.error(`e2e rig: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
writeFileSync(STATE_FILE, `${JSON.stringify(rig.state, null, 2)}\n`);
console.log(`e2e rig: ${rig.state.baseURL} (data in ${rig.state.dataDir})`);
console.log(`e2e rig: seeded thread ${rig.state.baseURL}${rig.state.seededThreadPath}`);

const stop = (signal: string) => {
  console.log(`e2e rig: ${signal}, stopping`);
  rmSync(STATE_FILE, { force: true });
  rig.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.once("SIGTERM", () => stop("SIGTERM"));
process.once("SIGINT", () => stop("SIGINT"));
