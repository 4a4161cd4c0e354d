import { loadConfig } from '../config.js';
import { connect } from './connection.js';
import { migrateToLatest } from './migrate.js';

/** `npm run db:migrate`: applies pending migrations to the configured database and exits. */
const config = loadConfig();
const { db, dialect, location } = connect(config);
try {
  const applied = await migrateToLatest(db, dialect);
  console.info(
    applied.length > 0
      ? `Applied ${applied.join(', ')} to ${dialect} at ${location}`
      : `The ${dialect} database at ${location} is up to date`,
  );
} finally {
  await db.destroy();
}
