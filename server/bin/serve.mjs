// Serves Tally (API and web app). Started with the Node flags of server/bin/node-flags.mjs by
// `npm start` (scripts/start.mjs) and by the release's bin/tally-server; `node serve.mjs` alone
// runs with V8's defaults. Node's compile cache keeps the compiled server in the system's
// temporary folder, so a restart does not compile it again (docs/performance.md, Footprint); then
// the server as one module (scripts/bundle-server.mjs).
import './require-node.mjs';
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('../dist/main.bundle.js');
