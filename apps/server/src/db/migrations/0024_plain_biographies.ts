import { sql, type Kysely } from 'kysely';

/**
 * Biographies become plain text, as every client shows them and the spec's own client sends
 * them (a textarea): earlier versions ran them through the chapter sanitizer, so "Tom & Jerry"
 * came back as "Tom &amp; Jerry" and a paragraph as "<p>…</p>". Each stored biography is turned
 * back into the text it shows: blocks and line breaks become new lines, tags go, and the
 * entities the sanitizer writes are decoded (`&amp;` last, so a typed "&lt;" stays "&lt;").
 * Self-contained on purpose: a migration never depends on application code.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const rows = await sql<{ id: number; biography: string }>`select id, biography from users
    where biography like '%<%' or biography like '%&%'`.execute(db);
  for (const { id, biography } of rows.rows) {
    const text = textOfHtml(biography);
    if (text !== biography)
      await sql`update users set biography = ${text} where id = ${id}`.execute(db);
  }
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** A numeric entity's character; U+FFFD for one no text may hold (NUL, past U+10FFFF, a surrogate). */
function character(code: number): string {
  const storable = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
  return String.fromCodePoint(storable ? code : 0xfffd);
}

function textOfHtml(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|blockquote|pre|h[1-6])>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => character(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, decimal: string) => character(Number(decimal)))
    .replace(/&(lt|gt|quot|apos|nbsp);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
