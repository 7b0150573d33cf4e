/**
 * Issue 20's storage target for kept chapter versions: a 16 KB chapter autosaved 2,000 times
 * over a simulated week, with small edits between saves, must take at most 10 % of storing
 * every save whole. Runs the server's own code (the save's UPDATE, whose trigger keeps the
 * version, migration 0017; then the
 * scheduled job's packing and thinning every 10 simulated minutes) on a fresh SQLite file, with
 * a simulated clock. `npm run bench:revisions` (about a minute).
 *
 * The week: two writing sessions a day (09:00 and 20:00 UTC), an autosave every 10 s while
 * typing. Between saves the author types or deletes a few words where the cursor is, and now
 * and then moves the cursor elsewhere.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createDb } from '../apps/server/src/db/kysely.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { compactRevisions } from '../apps/server/src/modules/revisions/revision-log.ts';
import { packWhole } from '../apps/server/src/modules/revisions/revision-codec.ts';
import { userRow } from '../apps/server/test/helpers/rows.ts';
import { loadCorpus } from './lib/corpus.ts';
import { intBetween, seededRandom } from './lib/random.ts';
import { autosaveHtml } from './suites/writes.ts';

const SAVES = 2_000;
const SAVE_EVERY_MS = 10_000;
const JOB_EVERY_MS = 10 * 60_000;
const SESSIONS_UTC_HOURS = [9, 20];
const START = Date.parse('2027-03-01T00:00:00.000Z');

const random = seededRandom(20);
const corpus = await loadCorpus(random);
const words = corpus.books[0]!.flatMap((p) => p.text.split(' ')).filter((w) => /^[a-z]+$/i.test(w));
const word = () => words[intBetween(random, 0, words.length - 1)]!;

/** The save times: sessions of saves 10 s apart, twice a day, until there are SAVES of them. */
function saveTimes(): number[] {
  const times: number[] = [];
  const perSession = Math.ceil(SAVES / (7 * SESSIONS_UTC_HOURS.length));
  for (let day = 0; times.length < SAVES; day++)
    for (const hour of SESSIONS_UTC_HOURS)
      for (let i = 0; i < perSession && times.length < SAVES; i++)
        times.push(START + day * 86_400_000 + hour * 3_600_000 + i * SAVE_EVERY_MS);
  return times;
}

/** Types or deletes a few words at the cursor (a space in the text), keeping about 16 KB. */
function edit(html: string, cursor: number): { html: string; cursor: number } {
  if (random() < 0.1 || cursor >= html.length - 10) {
    cursor = html.indexOf(' ', intBetween(random, 10, html.length - 20));
  }
  if (html.length > 16_600 || (html.length > 15_800 && random() < 0.5)) {
    // Delete up to five words after the cursor (stopping at a paragraph's end).
    let end = cursor;
    for (let n = intBetween(random, 1, 5); n > 0; n--) {
      const next = html.indexOf(' ', end + 1);
      const close = html.indexOf('<', end + 1);
      if (next < 0 || (close >= 0 && close < next)) break;
      end = next;
    }
    if (end > cursor) return { html: html.slice(0, cursor) + html.slice(end), cursor };
  }
  const typed = Array.from({ length: intBetween(random, 1, 8) }, word).join(' ');
  return {
    html: `${html.slice(0, cursor)} ${typed}${html.slice(cursor)}`,
    cursor: cursor + typed.length + 1,
  };
}

async function simulate(thin: boolean, published = false) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-revisions-bench-'));
  const file = path.join(dir, 'bench.db');
  const db = createDb(`sqlite:${file}`);
  await migrateToLatest(db);
  const now0 = new Date(START).toISOString();
  const { id: userId } = await db
    .insertInto('users')
    .values(userRow('bench', now0))
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id: bookId } = await db
    .insertInto('books')
    .values({
      author_id: userId,
      title: 'Bench',
      summary: '',
      cover: null,
      is_published: 0,
      published_at: null,
      created_at: now0,
      updated_at: now0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  let html = autosaveHtml(corpus);
  const { id: chapterId } = await db
    .insertInto('chapters')
    .values({
      book_id: bookId,
      title: 'Chapter',
      content: html,
      word_count: 0,
      chapter_order: 1,
      // A published chapter's autosaves thin like a draft's (decision 0033).
      is_published: published ? 1 : 0,
      created_at: now0,
      updated_at: now0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  let whole = 0;
  let wholeDeflated = 0;
  let cursor = html.indexOf(' ', 100);
  let nextJob = START + JOB_EVERY_MS;
  let jobMs = 0;
  let jobRuns = 0;
  const runJob = async (at: number) => {
    const started = performance.now();
    await compactRevisions(db, thin ? at : 0);
    const ms = performance.now() - started;
    if (process.env.BENCH_TRACE && ms > 40)
      console.log(`job at ${new Date(at).toISOString()}: ${ms.toFixed(0)} ms`);
    jobMs = Math.max(jobMs, ms);
    jobRuns++;
  };
  for (const at of saveTimes()) {
    while (nextJob <= at) {
      await runJob(nextJob);
      nextJob += JOB_EVERY_MS;
    }
    ({ html, cursor } = edit(html, cursor));
    whole += Buffer.byteLength(html);
    if (!thin) wholeDeflated += packWhole(html).length;
    // The autosave's UPDATE as the service writes it; migration 0017's trigger keeps the version.
    await db
      .updateTable('chapters')
      .set({ content: html, save_kind: 'autosave', updated_at: new Date(at).toISOString() })
      .where('id', '=', chapterId)
      .execute();
  }
  // The end of the simulated week: one more run of the job.
  const end = START + 7 * 86_400_000;
  await runJob(Math.max(end, nextJob));

  const stored = await db
    .selectFrom('chapter_revisions')
    .select([
      sql<number>`count(*)`.as('rows'),
      sql<number>`coalesce(sum(length(packed)), 0) + coalesce(sum(length(content)), 0)`.as(
        'content',
      ),
      sql<number>`sum(length(title) + length(kind) + length(created_at) + 5 * 8)`.as('columns'),
      sql<number>`sum(case when base_id is null then 1 else 0 end)`.as('keys'),
    ])
    .executeTakeFirstOrThrow();
  await sql`vacuum`.execute(db);
  await db.destroy();
  const fileBytes = fs.statSync(file).size;
  fs.rmSync(dir, { recursive: true, force: true });
  return { whole, wholeDeflated, stored, fileBytes, jobMs, jobRuns };
}

const pct = (part: number, of: number) => `${((100 * part) / of).toFixed(2)} %`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

for (const [thin, published] of [
  [true, false],
  [false, false],
  [true, true],
] as const) {
  const r = await simulate(thin, published);
  const bytes = Number(r.stored.content) + Number(r.stored.columns);
  console.log(
    [
      (thin
        ? 'packed and thinned (the retention rule at the end of the week)'
        : 'packed, nothing thinned (every save kept)') +
        (published ? ', a published chapter:' : ':'),
      `  saves ${SAVES}, stored whole ${kb(r.whole)}${thin ? '' : `, each deflated whole ${kb(r.wholeDeflated)} (${pct(r.wholeDeflated, r.whole)})`}`,
      `  versions kept ${r.stored.rows} (${r.stored.keys} whole, the rest deltas)`,
      `  stored: content ${kb(Number(r.stored.content))} + other columns ${kb(Number(r.stored.columns))} = ${kb(bytes)} = ${pct(bytes, r.whole)} of every save whole`,
      `  the SQLite file after VACUUM (the whole schema, one user, book and chapter included): ${kb(r.fileBytes)} = ${pct(r.fileBytes, r.whole)}`,
      `  the job: ${r.jobRuns} runs, the longest ${r.jobMs.toFixed(1)} ms`,
    ].join('\n'),
  );
}
