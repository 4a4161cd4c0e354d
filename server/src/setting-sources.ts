import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Where a setting's value comes from (docs/decisions/126-settings-from-files.md): the variable
 * itself, `NAME_FILE` (a path, as Docker and Kubernetes secrets mount them), or the file `NAME`
 * in systemd's `$CREDENTIALS_DIRECTORY` (LoadCredential=). Every setting is read this way, so a
 * secret added later gets all three without a line of its own. A setting given more than one
 * way is refused, naming it and the ways, never the values: one of them would be ignored
 * silently otherwise.
 */
export function createSettingReader(
  env: NodeJS.ProcessEnv,
  problems: string[],
): (name: string) => string | null {
  const seen = new Map<string, string | null>();
  const credentials = env.CREDENTIALS_DIRECTORY?.trim() || null;

  const readFile = (file: string, source: string, name: string): string | null => {
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      // ENOENT of the credentials folder is simply "not given there".
      if (source === 'credentials' && code === 'ENOENT') return null;
      problems.push(
        source === 'credentials'
          ? `${name}: Tally cannot read ${file} (${code})`
          : `${name}_FILE names a file Tally cannot read: ${file} (${code})`,
      );
      return null;
    }
  };

  const resolve = (name: string): string | null => {
    const given: { source: string; value: string }[] = [];
    const direct = env[name];
    if (direct !== undefined && direct.trim() !== '') {
      given.push({ source: name, value: direct });
    }
    const fileName = env[`${name}_FILE`]?.trim();
    if (fileName) {
      const value = readFile(fileName, 'file', name);
      if (value !== null) given.push({ source: `${name}_FILE`, value });
    }
    if (credentials !== null && /^[A-Z0-9_]+$/.test(name)) {
      const file = path.join(credentials, name);
      const value = readFile(file, 'credentials', name);
      if (value !== null) given.push({ source: `$CREDENTIALS_DIRECTORY/${name}`, value });
    }
    if (given.length > 1) {
      problems.push(
        `${name} is given ${given.length} ways (${given.map((g) => g.source).join(', ')}); set it one way only`,
      );
    }
    const value = given[0]?.value.trim();
    return value ? value : null;
  };

  return (name) => {
    // Each setting is resolved once, so a problem with it is listed once.
    if (!seen.has(name)) seen.set(name, resolve(name));
    return seen.get(name) ?? null;
  };
}
