import crypto from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ImportJob } from '@inkwell/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { INTERRUPTED } from '../../src/modules/imports/runner.ts';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { createChapter } from '../helpers/chapters.ts';
import { declareSize, docx, epub2, epub3, prose, type TestDoc } from '../helpers/ebooks.ts';
import { makeImage } from '../helpers/images.ts';
import {
  importedChapters,
  importFile as importWith,
  importForm,
  uploadTo,
  waitForImport,
} from '../helpers/imports.ts';

let t: TestApp;
let author: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  author = await signup(t.app);
  stranger = await signup(t.app);
});
afterAll(() => t.close());

/** An import's multipart body as written out by hand (boundary "b"), from the author. */
const postWrittenOut = (payload: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/imports',
    headers: {
      authorization: `Bearer ${author.token}`,
      'content-type': 'multipart/form-data; boundary=b',
    },
    payload,
  });

const upload = (
  who: TestUser | null,
  file: Buffer,
  filename: string,
  fields: Record<string, string> = {},
) => uploadTo(t.app, '/api/imports', who, file, filename, fields);

type Job = ImportJob;

const waitFor = (jobId: number, who: TestUser = author) => waitForImport(t.app, who, jobId);

const importFile = (
  file: Buffer,
  filename: string,
  fields: Record<string, string> = {},
  who: TestUser = author,
) => importWith(t.app, who, file, filename, fields);

const chaptersOf = (bookId: number) => importedChapters(t.app, author, bookId);

const storyDocs = (): TestDoc[] => [
  { file: 'cover.xhtml', body: '<img src="../images/cover.png"/>' },
  {
    file: 'title.xhtml',
    toc: 'Title Page',
    bodyType: 'frontmatter',
    body: '<h1>Imported Tale</h1>',
  },
  { file: 'copyright.xhtml', toc: 'Copyright', body: '<p>All rights reserved.</p>' },
  {
    file: 'one.xhtml',
    toc: 'Arrival',
    body: '<h2>Arrival</h2><p>They <em>arrived</em>.</p><script>document.cookie</script><p onmouseover="x()">Safe.</p>',
  },
  { file: 'two.xhtml', toc: 'Departure', body: '<p>They left &amp; never came back.</p>' },
];

let titleCounter = 0;
const uniqueTitle = (base: string) => `${base} ${++titleCounter}`;

describe('importing', () => {
  it('answers 202 with a queued job at once, then builds an unpublished book from an EPUB 3', async () => {
    const cover = await makeImage('png', 40, 60);
    const title = uniqueTitle('Imported Tale');
    const file = await epub3({
      title,
      author: 'Original Writer',
      description: 'A <b>tale</b> told.',
      docs: storyDocs(),
      cover: { bytes: cover, mediaType: 'image/png' },
      landmarks: [['cover', 'cover.xhtml']],
    });
    const res = await upload(author, file, 'tale.epub');
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({
      status: 'queued',
      progress: 0,
      book_id: null,
      filename: 'tale.epub',
      format: 'epub',
      keep_front_matter: false,
    });

    const job = await waitFor(res.json().id);
    expect(job).toMatchObject({
      status: 'done',
      progress: 1,
      chapter_count: 2,
      source_title: title,
      source_author: 'Original Writer',
    });
    expect(job.message).toBe(`Imported "${title}" with 2 chapters`);
    expect(job.warnings.join()).toMatch(/Skipped 2 front or back matter sections/);

    const book = (await as(t.app, author).get(`/api/books/${job.book_id}`)).json();
    expect(book).toMatchObject({
      title,
      summary: 'A tale told.',
      is_published: false,
      author_id: author.id,
    });
    expect(book.cover).toMatch(/^\/uploads\/[a-f0-9]{32}\.(png|jpg)$/);
    expect((await t.app.inject({ method: 'GET', url: book.cover })).statusCode).toBe(200);

    const chapters = await chaptersOf(job.book_id!);
    expect(chapters.map((c) => [c.title, c.is_published])).toEqual([
      ['Arrival', false],
      ['Departure', false],
    ]);
    // Through the editor's sanitizer: no script, no handler.
    expect(chapters[0]!.content).toBe('<p>They <em>arrived</em>.</p><p>Safe.</p>');
    expect(chapters[1]!.content).toBe('<p>They left &amp; never came back.</p>');
    // Drafts stay private.
    expect((await as(t.app, stranger).get(`/api/books/${job.book_id}`)).statusCode).toBe(404);
  });

  it('imports an EPUB 2 with its front matter when asked', async () => {
    const job = await importFile(
      await epub2({ title: uniqueTitle('Old'), docs: storyDocs() }),
      'old.epub',
      { keep_front_matter: 'true' },
    );
    expect(job).toMatchObject({ status: 'done', keep_front_matter: true });
    expect((await chaptersOf(job.book_id!)).map((c) => c.title)).toEqual([
      'Title Page',
      'Copyright',
      'Arrival',
      'Departure',
    ]);
  });

  it('imports DOCX split at headings, and Markdown (also when named otherwise, with a format hint)', async () => {
    const word = await importFile(
      await docx({
        title: uniqueTitle('Word Book'),
        paragraphs: [
          { style: 'Heading1', runs: [{ text: 'First' }] },
          { runs: [{ text: 'Bold', bold: true }, { text: ' start.' }] },
          { style: 'Heading2', runs: [{ text: 'Second' }] },
          { list: 'bullet', runs: [{ text: 'point' }] },
        ],
      }),
      'book.docx',
    );
    expect(word.status).toBe('done');
    expect((await chaptersOf(word.book_id!)).map((c) => [c.title, c.content])).toEqual([
      ['First', '<p><strong>Bold</strong> start.</p>'],
      ['Second', '<ul><li>point</li></ul>'],
    ]);

    const title = uniqueTitle('Marked Down');
    const md = await importFile(
      Buffer.from(`# ${title}\n\n## One\n\nHello *there*.\n\n## Two\n\nBye.\n`),
      'notes.txt',
      { format: 'markdown' },
    );
    expect(md).toMatchObject({ status: 'done', format: 'markdown', chapter_count: 2 });
    expect((await as(t.app, author).get(`/api/books/${md.book_id}`)).json().title).toBe(title);
  });

  it('names the book uniquely among the author’s books', async () => {
    const title = uniqueTitle('Twice');
    await createBook(t.app, author, title);
    const job = await importFile(Buffer.from('Chapter 1\n\nOnce.\n'), 'x.txt', { format: 'text' });
    expect(job.status).toBe('done');
    const file = await epub3({ title, docs: storyDocs() });
    const again = await importFile(file, 'twice.epub');
    expect((await as(t.app, author).get(`/api/books/${again.book_id}`)).json().title).toBe(
      `${title} (1)`,
    );
  });

  it('round-trips an exported book', async () => {
    const book = await createBook(t.app, author, uniqueTitle('Round Trip'), {
      published: true,
      summary: 'Both ways',
    });
    await createChapter(
      t.app,
      author,
      book.id,
      {
        title: 'Out',
        content: '<p>There &amp; <strong>back</strong><br>again</p><hr><ul><li>x</li></ul>',
      },
      { published: true },
    );
    await createChapter(
      t.app,
      author,
      book.id,
      { title: 'Back', content: '<h3>Home</h3><p>“Quoted”</p>' },
      { published: true },
    );
    const exported = await as(t.app).get(`/api/books/${book.id}/export.epub`);
    const job = await importFile(exported.rawPayload, 'round.epub');
    expect(job).toMatchObject({ status: 'done', chapter_count: 2, source_title: book.title });
    expect((await chaptersOf(job.book_id!)).map((c) => [c.title, c.content])).toEqual([
      ['Out', '<p>There &amp; <strong>back</strong><br />again</p><hr /><ul><li>x</li></ul>'],
      ['Back', '<h3>Home</h3><p>“Quoted”</p>'],
    ]);
  });
});

describe('bad files', () => {
  const failed = async (file: Buffer, filename: string) => {
    const job = await importFile(file, filename);
    expect(job.status).toBe('failed');
    expect(job.book_id).toBeNull();
    return job.message;
  };

  it('fails a corrupt zip, a zip bomb and a missing spine with a clear message, and keeps serving', async () => {
    const before = (await as(t.app, author).get('/api/my/books')).json().length;
    expect(
      await failed(Buffer.from('PK\u0003\u0004 this is not really a zip'), 'broken.epub'),
    ).toMatch(/not a readable zip archive/);
    const file = await epub3({
      title: 'Bomb',
      docs: [{ file: 'bomb.xhtml', toc: 'Bomb', body: `<p>${'a'.repeat(4 * 1024 * 1024)}</p>` }],
    });
    expect(await failed(declareSize(file, 'OPS/text/bomb.xhtml', 500), 'bomb.epub')).toMatch(
      /zip bomb/,
    );
    expect(
      await failed(declareSize(file, 'OPS/text/bomb.xhtml', 2_000_000_000), 'bomb2.epub'),
    ).toMatch(/zip bomb/);
    const noSpine = `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/><manifest/></package>`;
    expect(await failed(await epub3({ docs: [], opf: noSpine }), 'nospine.epub')).toMatch(
      /no spine/,
    );
    // No half-made book was left behind, and the server still answers.
    expect((await as(t.app, author).get('/api/my/books')).json().length).toBe(before);
    expect((await as(t.app).get('/api/genres')).statusCode).toBe(200);
  });

  it('refuses uploads over 20 MB with 413, unknown types with 415, and malformed requests with 400', async () => {
    const huge = await upload(author, Buffer.alloc(20 * 1024 * 1024 + 1, 'a'), 'huge.txt');
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({
      detail: 'The file is larger than 20 MB, the most an import accepts',
      code: 'payload_too_large',
    });
    const pdf = await upload(
      author,
      Buffer.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0, 0, 1, 2]),
      'paper.pdf',
    );
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json().code).toBe('unsupported_media_type');
    expect(
      (await upload(author, Buffer.from('x'), 'a.txt', { keep_front_matter: 'maybe' })).statusCode,
    ).toBe(400);
    expect((await upload(author, Buffer.from('x'), 'a.txt', { format: 'pdf' })).statusCode).toBe(
      400,
    );
    const json = await as(t.app, author).post('/api/imports', { file: 'not multipart' });
    expect(json.statusCode).toBe(400);
    const wrongField = await postWrittenOut(
      '--b\r\nContent-Disposition: form-data; name="image"; filename="a.txt"\r\n\r\nhello\r\n--b--\r\n',
    );
    expect(wrongField.statusCode).toBe(400);
  });

  it('answers 400 for NUL in the file’s name or a field, and drops NUL from the file’s text', async () => {
    // As a client may send them: the name percent-encoded (RFC 5987), a field as it was typed.
    const part = (disposition: string, body: string) =>
      `--b\r\nContent-Disposition: form-data; ${disposition}\r\n\r\n${body}\r\n`;
    for (const [payload, field] of [
      [`${part(`name="file"; filename*=UTF-8''story%00.txt`, 'hello')}--b--\r\n`, 'file'],
      [
        `${part('name="format"', 'te\u0000xt')}${part('name="file"; filename="a.txt"', 'hi')}--b--\r\n`,
        'format',
      ],
    ]) {
      const res = await postWrittenOut(payload!);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().detail).toBe(
        `${field}: Text must be valid Unicode without NUL (U+0000) characters`,
      );
    }

    const job = await importFile(Buffer.from('Chapter 1\n\nNo\u0000where.\n'), 'nul.txt');
    expect(job.status, job.message).toBe('done');
    expect((await chaptersOf(job.book_id!)).map((c) => c.content)).toEqual(['<p>Nowhere.</p>']);
  });

  it('limits how many imports one user runs at once', async () => {
    const busy = await signup(t.app);
    const now = new Date().toISOString();
    for (let i = 0; i < 3; i++) {
      await t.ctx.db
        .insertInto('import_jobs')
        .values({
          user_id: busy.id,
          status: 'running',
          filename: 'x.epub',
          format: 'epub',
          runner: 'elsewhere',
          heartbeat_at: now,
          created_at: now,
          updated_at: now,
          progress: 0,
          message: '',
          keep_front_matter: 0,
          warnings: '[]',
        })
        .execute();
    }
    const res = await upload(busy, Buffer.from('text'), 'a.txt');
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('rate_limited');
  });
});

describe('import jobs belong to their owner', () => {
  it('refuses visitors and hides one user’s jobs from another', async () => {
    expect((await upload(null, Buffer.from('x'), 'a.txt')).statusCode).toBe(401);
    const job = await importFile(Buffer.from('Chapter 1\n\nMine.\n'), `${uniqueTitle('mine')}.txt`);
    expect((await as(t.app).get(`/api/imports/${job.id}`)).statusCode).toBe(401);
    expect((await as(t.app).get('/api/imports')).statusCode).toBe(401);
    expect((await as(t.app, stranger).get(`/api/imports/${job.id}`)).statusCode).toBe(404);
    expect(
      (await as(t.app, stranger).get('/api/imports')).json().imports.map((j: Job) => j.id),
    ).not.toContain(job.id);
    expect((await as(t.app, author).get(`/api/imports/${job.id}`)).statusCode).toBe(200);
    expect((await as(t.app, author).get('/api/imports')).json().imports[0].id).toBe(job.id);
    expect((await as(t.app, author).get('/api/imports/999999')).statusCode).toBe(404);
  });
});

describe('jobs and the server process', () => {
  /** A job row as a runner (live, or dead since `heartbeat`) leaves it. */
  const insertJob = (status: 'running' | 'queued', heartbeat: string, bookId: number | null) =>
    t.ctx.db
      .insertInto('import_jobs')
      .values({
        user_id: author.id,
        status,
        filename: 'x.epub',
        format: 'epub',
        runner: 'dead-or-alive',
        heartbeat_at: heartbeat,
        created_at: heartbeat,
        updated_at: heartbeat,
        progress: 500,
        message: 'Reading',
        keep_front_matter: 0,
        warnings: '[]',
        book_id: bookId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

  it('fails jobs orphaned by a dead process when a server starts, removing their half-made book, and spares live ones', async () => {
    const old = new Date(Date.now() - 10 * 60_000).toISOString();
    const fresh = new Date().toISOString();
    const partial = await createBook(t.app, author, uniqueTitle('Half imported'));
    const orphan = await insertJob('running', old, partial.id);
    const orphanQueued = await insertJob('queued', old, null);
    const live = await insertJob('running', fresh, null);

    // A second server process starting on the same database.
    const second = await buildApp(t.config, { logger: false });
    try {
      const jobs = await t.ctx.db
        .selectFrom('import_jobs')
        .select(['id', 'status', 'message', 'book_id'])
        .where('id', 'in', [orphan.id, orphanQueued.id, live.id])
        .orderBy('id')
        .execute();
      expect(jobs).toEqual([
        { id: orphan.id, status: 'failed', message: INTERRUPTED, book_id: null },
        { id: orphanQueued.id, status: 'failed', message: INTERRUPTED, book_id: null },
        { id: live.id, status: 'running', message: 'Reading', book_id: null },
      ]);
      expect((await as(t.app, author).get(`/api/books/${partial.id}`)).statusCode).toBe(404);
    } finally {
      await second.app.close();
      await t.ctx.db.deleteFrom('import_jobs').where('id', '=', live.id).execute();
    }
  });

  it('keeps a half-made book its author took up meanwhile, in any way', async () => {
    const old = new Date(Date.now() - 10 * 60_000).toISOString();
    /** A draft book with `count` chapters as an import writes them. */
    const halfImported = async (name: string, count = 2) => {
      const book = await createBook(t.app, author, uniqueTitle(name));
      for (let order = 1; order <= count; order++)
        await t.ctx.db
          .insertInto('chapters')
          .values({
            book_id: book.id,
            title: `Imported ${order}`,
            content: '<p>As the file had it.</p>',
            word_count: 5,
            chapter_order: order,
            is_published: 0,
            save_kind: 'import',
            created_at: old,
            updated_at: old,
          })
          .execute();
      const chapters = await t.ctx.db
        .selectFrom('chapters')
        .select('id')
        .where('book_id', '=', book.id)
        .orderBy('chapter_order')
        .execute();
      const chapterIds = chapters.map((c) => c.id);
      return { id: book.id as number, chapterIds };
    };
    const ok = (res: { statusCode: number; body: string }) => {
      expect(res.statusCode, res.body).toBeLessThan(300);
    };
    const written = await halfImported('Written in', 0);
    await createChapter(t.app, author, written.id, { title: 'By hand' });
    const published = await createBook(t.app, author, uniqueTitle('Shown'), { published: true });
    const renamed = await halfImported('Renamed');
    ok(await as(t.app, author).put(`/api/books/${renamed.id}`, { title: uniqueTitle('Mine now') }));
    const noted = await halfImported('Noted');
    ok(
      await as(t.app, author).put(`/api/books/${noted.id}/chapters/${noted.chapterIds[0]}`, {
        note_before: '<p>A word before</p>',
      }),
    );
    const pruned = await halfImported('Pruned');
    ok(await as(t.app, author).delete(`/api/chapters/${pruned.chapterIds[1]}`));
    const announced = await halfImported('Announced');
    ok(
      await as(t.app, author).post(`/api/books/${announced.id}/announcements`, {
        title: 'Soon',
        body: '<p>More to come</p>',
      }),
    );
    const genred = await halfImported('Genred');
    const genreId = (await as(t.app).get('/api/genres')).json().genres[0].id;
    ok(await as(t.app, author).post(`/api/books/${genred.id}/genres`, { genre_id: genreId }));
    const annotated = await halfImported('Annotated');
    ok(
      await as(t.app, author).post('/api/my/notes', {
        book_id: annotated.id,
        body: 'Fix the second chapter',
      }),
    );
    const reordered = await halfImported('Reordered');
    ok(
      await as(t.app, author).put(`/api/books/${reordered.id}/chapters`, {
        chapters: [...reordered.chapterIds]
          .reverse()
          .map((id, i) => ({ id, chapter_order: i + 1 })),
      }),
    );
    const untouched = await halfImported('Untouched');

    const kept = [
      written,
      published,
      renamed,
      noted,
      pruned,
      announced,
      genred,
      annotated,
      reordered,
    ];
    const removed = [untouched];
    const jobIds = [];
    for (const book of [...kept, ...removed])
      jobIds.push((await insertJob('running', old, book.id)).id);
    const second = await buildApp(t.config, { logger: false });
    try {
      const jobs = await t.ctx.db
        .selectFrom('import_jobs')
        .select(['status', 'book_id'])
        .where('id', 'in', jobIds)
        .orderBy('id')
        .execute();
      // Failed, and still naming the books the author keeps.
      expect(jobs).toEqual([
        ...kept.map((book) => ({ status: 'failed', book_id: book.id })),
        ...removed.map(() => ({ status: 'failed', book_id: null })),
      ]);
      for (const book of kept)
        expect((await as(t.app, author).get(`/api/books/${book.id}`)).statusCode).toBe(200);
      for (const book of removed)
        expect((await as(t.app, author).get(`/api/books/${book.id}`)).statusCode).toBe(404);
    } finally {
      await second.app.close();
    }
  });

  it(
    'undoes a finished import whose job was ended meanwhile: a book is whole with a done job, or gone',
    { timeout: 60_000 },
    async () => {
      const docs: TestDoc[] = Array.from({ length: 200 }, (_, i) => ({
        file: `c${i}.xhtml`,
        toc: `Chapter ${i + 1}`,
        body: prose(30),
      }));
      const res = await upload(
        author,
        await epub3({ title: uniqueTitle('Swept'), docs }),
        's.epub',
      );
      expect(res.statusCode).toBe(202);
      const jobId: number = res.json().id;
      let bookId: number | null = null;
      while (bookId === null) {
        const job = (await as(t.app, author).get(`/api/imports/${jobId}`)).json<Job>();
        expect(job.status, 'the import ended before its book was made').not.toMatch(/done|failed/);
        bookId = job.book_id;
        if (bookId === null) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      // Another process's sweep takes the job for an orphan and fails it, while this one goes on
      // writing chapters (the sweep's own removal of the book came too early to find it whole).
      const swept = 'Failed by a sweep';
      await t.ctx.db
        .updateTable('import_jobs')
        .set({ status: 'failed', message: swept })
        .where('id', '=', jobId)
        .execute();
      // The import ends either way: its book removed, or marked whole (its updated_at moved on).
      const book = () =>
        t.ctx.db
          .selectFrom('books')
          .select(['created_at', 'updated_at'])
          .where('id', '=', bookId)
          .executeTakeFirst();
      const deadline = Date.now() + 30_000;
      for (let row = await book(); row && row.updated_at === row.created_at; row = await book()) {
        expect(Date.now(), 'the import never ended').toBeLessThan(deadline);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await book(), 'a whole book beside a failed job').toBeUndefined();
      expect((await as(t.app, author).get(`/api/imports/${jobId}`)).json()).toMatchObject({
        status: 'failed',
        message: swept,
        book_id: null,
      });
    },
  );

  it(
    'fails the jobs in hand on a graceful shutdown, leaving no half-made book, its cover found or not',
    { timeout: 60_000 },
    async () => {
      const own = await createTestApp();
      const user = await signup(own.app);
      const docs: TestDoc[] = Array.from({ length: 200 }, (_, i) => ({
        file: `c${i}.xhtml`,
        toc: `Chapter ${i + 1}`,
        body: prose(30),
      }));
      // The cover is saved before the chapters, so the book the shutdown stops has it.
      const cover = { bytes: await makeImage('jpeg', 40, 60), mediaType: 'image/jpeg' as const };
      const body = importForm(await epub3({ title: 'Interrupted', docs, cover }), 'stop.epub');
      const post = () =>
        own.app.inject({
          method: 'POST',
          url: '/api/imports',
          payload: body.payload,
          headers: { ...body.headers, authorization: `Bearer ${user.token}` },
        });
      const ids = [(await post()).json().id, (await post()).json().id, (await post()).json().id];
      // Wait until the first one has made its book (its cover is saved next, whatever
      // happens), then stop the server.
      for (;;) {
        const job = (await as(own.app, user).get(`/api/imports/${ids[0]}`)).json();
        if (job.book_id !== null) break;
        expect(job.status, 'the import ended before the server stopped').not.toMatch(
          /completed|failed/,
        );
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await own.app.close();
      const reopened = await buildApp(own.config, { logger: false });
      try {
        const jobs = await reopened.ctx.db
          .selectFrom('import_jobs')
          .select(['status', 'message', 'book_id'])
          .orderBy('id')
          .execute();
        expect(jobs).toEqual(
          ids.map(() => ({ status: 'failed', message: INTERRUPTED, book_id: null })),
        );
        expect(await reopened.ctx.db.selectFrom('books').select('id').execute()).toEqual([]);
      } finally {
        await reopened.app.close();
        await own.database.drop();
      }
    },
  );

  it(
    'parses a 10 MB EPUB off the event loop: other requests are served while it runs',
    { timeout: 120_000 },
    async () => {
      const words = () =>
        Array.from({ length: 400 }, () => crypto.randomBytes(3).toString('hex')).join(' ');
      const docs: TestDoc[] = Array.from({ length: 120 }, (_, i) => ({
        file: `c${i}.xhtml`,
        toc: `Chapter ${i + 1}`,
        body: Array.from({ length: 12 }, () => `<p>${words()}</p>`).join('') + prose(2),
      }));
      // Incompressible filler (as fonts and images are) brings the file to 10 MB.
      const file = await epub3({
        title: uniqueTitle('Big'),
        docs,
        extra: [
          { name: 'OPS/fonts/filler.otf', data: crypto.randomBytes(8 * 1024 * 1024), store: true },
        ],
      });
      expect(file.length).toBeGreaterThan(10 * 1024 * 1024);

      const histogram = monitorEventLoopDelay({ resolution: 10 });
      histogram.enable();
      const res = await upload(author, file, 'big.epub');
      expect(res.statusCode).toBe(202);
      let servedWhileRunning = 0;
      let job: Job;
      for (;;) {
        const started = performance.now();
        const genres = await as(t.app).get('/api/genres');
        expect(genres.statusCode).toBe(200);
        expect(performance.now() - started).toBeLessThan(1_000);
        job = (await as(t.app, author).get(`/api/imports/${res.json().id}`)).json<Job>();
        if (job.status === 'done' || job.status === 'failed') break;
        if (job.status === 'running') servedWhileRunning++;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      histogram.disable();
      expect(job.message).toMatch(/with 120 chapters/);
      expect(servedWhileRunning).toBeGreaterThan(3);
      // No single stall anywhere near the length of the import (the bound is loose: CI machines are busy).
      expect(histogram.max / 1e6).toBeLessThan(1_500);
    },
  );
});
