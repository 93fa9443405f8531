// `npm run build:web`: bundles web/ into web/dist. The gateway also builds it at start when web/dist is missing.
import { WEB_DIST, buildWebBundle } from "../src/gateway/web/buildWebBundle.js";

await buildWebBundle();
process.stdout.write(`built ${WEB_DIST}\n`);
