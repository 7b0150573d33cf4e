import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signup, type TestApp, type TestUser } from '../helpers/app.ts';
import {
  importedChapters,
  importFile,
  openingLines,
  planFields,
  previewFile,
  uploadTo,
} from '../helpers/imports.ts';
import { bodyWords, choicesBook, shapeFile, TOC_SHAPES } from '../helpers/toc-shapes.ts';

// Issue 23 §1: books with nested tables of contents, and choosing the chapters before the book
// is made. Runs on both engines.
let t: TestApp;
let author: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  author = await signup(t.app);
});
afterAll(() => t.close());

describe('tables of contents of every shape', () => {
  it.each(TOC_SHAPES.map((shape) => [shape.name, shape] as const))(
    '%s',
    { timeout: 60_000 },
    async (_name, shape) => {
      const file = await shapeFile(shape);
      const preview = await previewFile(t.app, author, file, 'shape.epub');
      expect(preview.chapters.filter((c) => c.included).map((c) => c.title)).toEqual(shape.titles);
      // Matter is proposed, flagged and unticked: never mistaken for story.
      for (const c of preview.chapters)
        expect([c.title, c.included]).toEqual([c.title, c.kind === 'body']);

      const job = await importFile(t.app, author, file, 'shape.epub');
      expect(job.status, job.message).toBe('done');
      const chapters = await importedChapters(t.app, author, job.book_id!);
      expect(chapters.map((c) => c.title)).toEqual(shape.titles);

      // Nothing lost, nothing doubled: part pages and group headings are folded in, not dropped.
      const story = bodyWords(shape.book);
      const total = chapters.reduce((sum, c) => sum + c.word_count, 0);
      expect(Math.abs(total - story) / story, `${total} words of ${story}`).toBeLessThan(0.02);
      expect(preview.chapters.filter((c) => c.included).reduce((s, c) => s + c.words, 0)).toBe(
        total,
      );

      // Every level's heading reaches the chapter it opens.
      for (const [title, lines] of Object.entries(shape.openings)) {
        const chapter = chapters.find((c) => c.title === title)!;
        const opening = openingLines(chapter.content, lines.length);
        expect(
          opening.map((line, i) => line.slice(0, lines[i]!.length)),
          title,
        ).toEqual(lines);
      }
    },
  );
});

describe('POST /api/imports/preview', () => {
  it('answers the proposed chapters with title, words, kind and opening, and stores nothing', async () => {
    const before = (await as(t.app, author).get('/api/my/books')).json().length;
    const jobsBefore = (await as(t.app, author).get('/api/imports')).json().imports.length;
    const preview = await previewFile(t.app, author, await choicesBook('Planned'), 'p.epub');
    expect(preview).toMatchObject({
      filename: 'p.epub',
      format: 'epub',
      keep_front_matter: false,
      title: 'Planned',
      source_title: 'Planned',
      source_author: 'Someone',
    });
    expect(
      preview.chapters.map((c) => [c.index, c.title, c.kind, c.included, c.words > 0]),
    ).toEqual([
      [0, 'Title Page', 'front', false, true],
      [1, 'One', 'body', true, true],
      [2, 'Interlude', 'body', true, true],
      [3, 'Two', 'body', true, true],
      [4, 'Three', 'body', true, true],
      [5, 'Colophon', 'back', false, true],
    ]);
    expect(preview.chapters[2]).toMatchObject({ words: 2, opening: 'A breath.' });
    expect(preview.chapters[1]!.opening).toMatch(/^one 0 lorem ipsum/);
    expect(preview.warnings).toContain(
      'Skipped 2 front or back matter sections (cover, title page, copyright, contents...)',
    );
    // With keep_front_matter the matter is proposed ticked.
    const keeping = await previewFile(t.app, author, await choicesBook('Planned'), 'p.epub', {
      keep_front_matter: 'true',
    });
    expect(keeping.chapters.every((c) => c.included)).toBe(true);

    expect((await as(t.app, author).get('/api/my/books')).json().length).toBe(before);
    expect((await as(t.app, author).get('/api/imports')).json().imports.length).toBe(jobsBefore);
  });

  it('refuses visitors, unknown types and unreadable files with clear messages', async () => {
    const file = await choicesBook('Refused');
    expect((await uploadTo(t.app, '/api/imports/preview', null, file, 'r.epub')).statusCode).toBe(
      401,
    );
    const pdf = await uploadTo(
      t.app,
      '/api/imports/preview',
      author,
      Buffer.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0, 0, 1, 2]),
      'a.pdf',
    );
    expect(pdf.statusCode).toBe(415);
    const broken = await uploadTo(
      t.app,
      '/api/imports/preview',
      author,
      Buffer.from('PK\u0003\u0004 not really a zip'),
      'broken.epub',
    );
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({
      code: 'validation',
      detail: expect.stringMatching(/not a readable zip archive/),
    });
    const noFile = await as(t.app, author).post('/api/imports/preview', { file: 'json' });
    expect(noFile.statusCode).toBe(400);
  });
});

describe('importing with the author’s choices', () => {
  it('leaves out, keeps, merges and renames chapters as the plan says', async () => {
    const file = await choicesBook('Chosen');
    const preview = await previewFile(t.app, author, file, 'c.epub');
    const job = await importFile(
      t.app,
      author,
      file,
      'c.epub',
      planFields({
        keep: [0],
        skip: [4],
        merge: [2],
        rename: [{ index: 3, title: 'Two, Renamed' }],
        chapter_count: preview.chapters.length,
      }),
    );
    expect(job.status, job.message).toBe('done');
    expect(job.chapter_count).toBe(3);
    const chapters = await importedChapters(t.app, author, job.book_id!);
    expect(chapters.map((c) => c.title)).toEqual(['Title Page', 'One', 'Two, Renamed']);
    // The merged chapter opens the next one under its own title: nothing of it is lost.
    expect(openingLines(chapters[2]!.content, 3)).toEqual([
      'Interlude',
      'A breath.',
      expect.stringMatching(/^two 0 lorem ipsum/),
    ]);
    expect(chapters[2]!.word_count).toBe(
      preview.chapters[2]!.words + 1 + preview.chapters[3]!.words,
    );
  });

  it('takes a plan of any size the contract allows, not only the first kilobyte of it', async () => {
    const file = await choicesBook('Long Titles');
    const preview = await previewFile(t.app, author, file, 'l.epub');
    const title = (i: number) =>
      `${i} ${'A title as long as the contract allows. '.repeat(10)}`.trim();
    const rename = preview.chapters.map((_, index) => ({
      index,
      title: title(index).slice(0, 200),
    }));
    const fields = planFields({ keep: [0], rename, chapter_count: preview.chapters.length });
    expect(fields.plan.length).toBeGreaterThan(1024);
    const job = await importFile(t.app, author, file, 'l.epub', fields);
    expect(job.status, job.message).toBe('done');
    const chapters = await importedChapters(t.app, author, job.book_id!);
    // Every chapter imported took its new title (matter left out by default has none to take).
    expect(chapters.length).toBeGreaterThan(3);
    for (const chapter of chapters) expect(rename.map((r) => r.title)).toContain(chapter.title);
  });

  it('fails the job, naming the problem, when the choices do not fit the file', async () => {
    const file = await choicesBook('Misfit');
    const failed = async (plan: object) => {
      const job = await importFile(t.app, author, file, 'm.epub', planFields(plan));
      expect(job.status).toBe('failed');
      expect(job.book_id).toBeNull();
      return job.message;
    };
    expect(await failed({ skip: [9] })).toBe(
      'The choices name chapter 10, but the file has 6 chapters',
    );
    expect(await failed({ chapter_count: 7 })).toBe(
      'The file now reads as 6 chapters, not the 7 that were previewed; preview it again',
    );
    expect(await failed({ merge: [4] })).toMatch(/^Chapter 5 has no imported chapter after it/);
    expect(await failed({ skip: [1, 2, 3, 4] })).toBe(
      'Every chapter was left out: there is nothing to import',
    );
  });

  it('refuses a plan that is not an ImportPlan with 400, before any job', async () => {
    const file = await choicesBook('Bad Plan');
    for (const plan of [
      'not json',
      '{"skip": [-1]}',
      '{"rename": [{"index": 1, "title": " "}]}',
      '{"drop": [1]}',
    ]) {
      const res = await uploadTo(t.app, '/api/imports', author, file, 'b.epub', { plan });
      expect(res.statusCode, plan).toBe(400);
      expect(res.json().detail).toMatch(/^plan/);
    }
  });
});
