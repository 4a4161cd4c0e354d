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

/**
 * A read-write API token for the account the bearer token signs in (after the password's proof
 * the token page asks for), and the Basic authorization a CalDAV client sends with it.
 */
export async function readWriteToken(base, { bearer, password, cookie = '' }) {
  const api = (method, url, body) =>
    fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', cookie },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const { email } = await (await api('GET', '/api/account')).json();
  await api('POST', '/api/account/reauthenticate', { password });
  const made = await api('POST', '/api/account/tokens', {
    name: 'bench',
    scope: 'read-write',
    expiresInDays: null,
  });
  const { token } = await made.json();
  return {
    email,
    token,
    authorization: `Basic ${Buffer.from(`${email}:${token}`).toString('base64')}`,
  };
}

/**
 * Registers `username` on the server at `base`, makes it a read-write API token and finds its
 * calendar home as a CalDAV client does: what a CalDAV benchmark signs in with.
 */
export async function caldavAccount(base, username) {
  const password = `Bench-${username}-password-5521`;
  const registered = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.org`, password }),
  });
  const { accessToken } = await registered.json();
  const account = await readWriteToken(base, {
    bearer: accessToken,
    password,
    cookie: registered.headers.get('set-cookie') ?? '',
  });
  const found = await fetch(`${base}/dav/`, {
    method: 'PROPFIND',
    headers: {
      authorization: account.authorization,
      depth: '0',
      'content-type': 'application/xml',
    },
    body: '<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><c:calendar-home-set/></d:prop></d:propfind>',
  });
  const home = /(\/dav\/calendars\/\d+\/)/.exec(await found.text())?.[1];
  if (!home) throw new Error(`${base}: no calendar home`);
  return { ...account, home };
}
