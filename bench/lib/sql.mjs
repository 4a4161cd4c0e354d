// A thin raw-driver adapter used by the seeder and the reference server: one `query` with `?`
// placeholders on both dialects, prepared statements cached on SQLite, a pool on PostgreSQL.
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';

const PG_INT8 = 20;

/** Rewrites `?` placeholders to `$1, $2, ...` for PostgreSQL. */
function numbered(text) {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

/**
 * @param {{ dialect: 'sqlite' | 'postgres', file?: string, url?: string, poolSize?: number }} options
 */
export function openDatabase(options) {
  if (options.dialect === 'sqlite') {
    const db = new SqliteDatabase(options.file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    const statements = new Map();
    const prepare = (text) => {
      let statement = statements.get(text);
      if (!statement) {
        statement = db.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    };
    const query = async (text, params = []) => {
      const statement = prepare(text);
      return statement.reader ? statement.all(params) : (statement.run(params), []);
    };
    return {
      dialect: 'sqlite',
      raw: db,
      query,
      /** Runs `work(query)` in one transaction (BEGIN IMMEDIATE on SQLite). */
      async transaction(work) {
        prepare('begin').run();
        try {
          const result = await work(query);
          prepare('commit').run();
          return result;
        } catch (error) {
          if (db.inTransaction) prepare('rollback').run();
          throw error;
        }
      },
      async close() {
        db.close();
      },
    };
  }
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    types: {
      getTypeParser: (oid, format) =>
        oid === PG_INT8 ? (value) => Number(value) : pg.types.getTypeParser(oid, format),
    },
  });
  const texts = new Map();
  const toPg = (text) => {
    let converted = texts.get(text);
    if (converted === undefined) {
      converted = numbered(text);
      texts.set(text, converted);
    }
    return converted;
  };
  return {
    dialect: 'postgres',
    raw: pool,
    async query(text, params = []) {
      return (await pool.query(toPg(text), params)).rows;
    },
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await work(
          async (text, params = []) => (await client.query(toPg(text), params)).rows,
        );
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}
