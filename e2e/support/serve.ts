/**
 * The rig's web server (playwright.config.ts `webServer`): `node --import tsx e2e/support/serve.ts`.
 * Starts {@link startRigServer} on E2E_PORT, writes e2e/.state.json for the specs, and on
 * SIGTERM/SIGINT stops the server and removes the temporary DATA_DIR and the state file.
 */
import { rmSync, writeFileSync } from "node:fs";
import { E2E_PORT, STATE_FILE } from "./rig.ts";
import { type RigServer, startRigServer } from "./rigServer.ts";

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
