// The Node flags the server runs with: `npm start` (scripts/start.mjs), the release's `npm start`
// (scripts/package.mjs writes them into its package.json) and the Docker image's CMD (kept the
// same by hand). V8 13 (Node 24) lets the young generation grow to 2 × 32 MB under load, which
// took the server's peak memory from 139 MB on Node 20 to 190 MB; 16 MB semi-spaces are Node 20's
// size (docs/performance.md, Footprint, with the CPU measured build against build).
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=16'];
