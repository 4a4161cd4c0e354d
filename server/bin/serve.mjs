// Serves Tally (API and web app); `npm start` and the release's server.js run this.
// Node's compile cache keeps the compiled server in the system's temporary folder, so a restart
// does not compile it again (docs/performance.md, Footprint); then the server as one module
// (scripts/bundle-server.mjs).
import './require-node.mjs';
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('../dist/main.bundle.js');
