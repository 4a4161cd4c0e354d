import path from 'node:path';
import { loadConfig } from '../config.js';
import { backupDatabase, defaultBackupTarget, restoreDatabase } from './backup.js';

/**
 * `npm run db:backup [-- file]`: an online backup of the configured database (the server may keep
 * running). `npm run db:restore -- file`: puts a backup back (stop the server first).
 */
const [command, file] = process.argv.slice(2);
const config = loadConfig();
try {
  if (command === 'restore') {
    if (!file) throw new Error('Name the backup to restore: npm run db:restore -- <file>');
    restoreDatabase(config, path.resolve(file));
    console.info(
      `Restored ${file} into the ${config.databaseUrl ? 'PostgreSQL' : 'SQLite'} database`,
    );
  } else {
    const target = path.resolve(file ?? defaultBackupTarget(config));
    await backupDatabase(config, target);
    console.info(
      `Backed up the ${config.databaseUrl ? 'PostgreSQL' : 'SQLite'} database to ${target}`,
    );
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
