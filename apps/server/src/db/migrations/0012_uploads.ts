import { sql, type Kysely } from 'kysely';

type Engine = 'sqlite' | 'postgres';

/**
 * Processed images in the database (UPLOAD_STORE=database, docs/decisions/0026): one row per
 * content-addressed name, so every process serves every upload without a shared folder. The
 * name is the key the public href ends with; saving the same bytes again changes nothing.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('uploads')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', engine === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // PNG and JPEG are compressed already: PostgreSQL need not try again before storing them
  // out of line (TOAST), and reads skip the attempt to decompress.
  if (engine === 'postgres')
    await sql`alter table uploads alter column bytes set storage external`.execute(db);
}
