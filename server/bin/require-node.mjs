// Tally runs on Node.js 24 or later (package.json "engines"). Imported first by `npm start`,
// `npm test` and the release's server.js, so an older Node stops at once with one sentence
// instead of failing later inside a native module.
const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  console.error(
    `Tally needs Node.js 24 or later and this is Node.js ${process.versions.node}: install Node.js 24 (in a checkout, \`source scripts/use-node24.sh\` brings it from the npm registry), then run this again.`,
  );
  process.exit(1);
}
