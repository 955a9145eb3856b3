// `carhere backup FILE` / `carhere restore FILE`: the embedded database (PGlite in DATA_DIR/pglite) as one
// gzipped tar file, and back. Run them with the server stopped: PGlite's data directory belongs to one process.
// With PostgreSQL (DATABASE_URL) use pg_dump / pg_restore instead (docs/deployment.md says how).
// The key that seals secrets at rest (DATA_DIR/secret.key, security/secretBox.ts) is not in the database: the
// backup writes it beside FILE as FILE.key (owner-only), and restore puts it back when it is there. Keep the two
// apart if you can (whoever has both reads the sealed secrets).
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { loadConfig } from '../config.ts';

const usage = 'usage: carhere backup FILE | carhere restore FILE   (embedded database in DATA_DIR; server stopped)';

function refuseWithPostgres(databaseUrl: string | undefined, what: string): void {
  if (databaseUrl) {
    throw new Error(
      `${what} works on the embedded database (PGlite). With DATABASE_URL set, use pg_dump -Fc / pg_restore (docs/deployment.md, "Backup and restore").`,
    );
  }
}

/** Writes DATA_DIR's database to `file` (gzipped tar) and its secret key to `file`.key; answers the bytes written. */
export async function backupDataDir(dataDir: string, file: string): Promise<number> {
  const keyFile = join(dataDir, 'secret.key');
  if (existsSync(keyFile)) writeFileSync(`${file}.key`, readFileSync(keyFile), { mode: 0o600 });
  const path = join(dataDir, 'pglite');
  if (!existsSync(path)) throw new Error(`no database in ${path}: nothing to back up (is DATA_DIR right?)`);
  const db = await PGlite.create(path);
  try {
    // A checkpoint first, so the copy needs no recovery when it is opened.
    await db.exec('CHECKPOINT');
    const dump = await db.dumpDataDir('gzip');
    const bytes = Buffer.from(await dump.arrayBuffer());
    writeFileSync(file, bytes);
    return bytes.length;
  } finally {
    await db.close();
  }
}

/** Creates DATA_DIR's database from a backup; refuses to overwrite an existing one. */
export async function restoreDataDir(dataDir: string, file: string): Promise<void> {
  const path = join(dataDir, 'pglite');
  if (existsSync(path) && statSync(path).isDirectory() && readdirSync(path).length > 0) {
    throw new Error(`${path} already holds a database: move it away (or choose another DATA_DIR) before restoring`);
  }
  if (!existsSync(file)) throw new Error(`${file}: no such file`);
  const keyFile = join(dataDir, 'secret.key');
  if (existsSync(`${file}.key`)) {
    if (existsSync(keyFile) && !readFileSync(keyFile).equals(readFileSync(`${file}.key`))) {
      throw new Error(`${keyFile} holds another key than ${file}.key: move it away before restoring`);
    }
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(keyFile, readFileSync(`${file}.key`), { mode: 0o600 });
  }
  mkdirSync(dataDir, { recursive: true }); // a fresh DATA_DIR need not exist yet
  const blob = new Blob([readFileSync(file)]);
  const db = await PGlite.create(path, { loadDataDir: blob });
  try {
    await db.query('SELECT 1');
  } finally {
    await db.close();
  }
}

export async function runBackupCli(command: 'backup' | 'restore', args: string[]): Promise<number> {
  const [file] = args;
  if (!file || args.length > 1) {
    console.error(usage);
    return 2;
  }
  const config = loadConfig();
  refuseWithPostgres(config.databaseUrl, command);
  const target = resolve(file);
  if (command === 'backup') {
    const bytes = await backupDataDir(config.dataDir, target);
    console.log(`backup of ${config.dataDir} written to ${target} (${(bytes / 1024 / 1024).toFixed(1)} MB)`);
  } else {
    await restoreDataDir(config.dataDir, target);
    console.log(`${target} restored into ${config.dataDir}; start the server with DATA_DIR=${config.dataDir}`);
  }
  return 0;
}
