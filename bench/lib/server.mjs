// Starting the servers the benchmarks measure.

/**
 * Resolves once the server at `origin` answers GET /api/health; throws if `child` (its process)
 * exits first, or after `seconds`.
 */
export async function waitUntilHealthy(origin, { child = null, seconds = 30 } = {}) {
  for (let waited = 0; waited < seconds * 1000; waited += 100) {
    if (child && child.exitCode !== null) {
      throw new Error(`the server at ${origin} exited (${child.exitCode})`);
    }
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server at ${origin} did not start`);
}
