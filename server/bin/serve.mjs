// Serves Tally (API and web app); `npm start` and the release's server.js run this.
// First the Node flags the server runs with (node-flags.mjs: the process starts again with them,
// in place). Node's compile cache keeps the compiled server in the system's temporary folder, so
// a restart does not compile it again (docs/performance.md, Footprint); then the server as one
// module (scripts/bundle-server.mjs).
import './require-node.mjs';
import { enableCompileCache } from 'node:module';
import { applyServerNodeFlags } from './node-flags.mjs';

applyServerNodeFlags();
enableCompileCache();
await import('../dist/main.bundle.js');
