// The server's Content-Security-Policy allows no eval (apps/server/src/http/README.md, "Headers"). Zod
// would probe `new Function` on first use, which the browser reports as a CSP violation even
// though Zod catches it; jitless skips the probe (the JIT could not run under the CSP anyway).
import { z } from "zod";

z.config({ jitless: true });
