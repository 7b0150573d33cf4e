import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { AppError } from '../../src/lib/errors.ts';
import { exportEpub } from '../../src/modules/exports/exports.service.ts';
import { ZipArchive } from '../../src/modules/imports/parsers/zip.ts';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { createChapter } from '../helpers/chapters.ts';
import { makeImage, multipart } from '../helpers/images.ts';
import { attribute, child, children, parseXml, textOf } from '../helpers/xml.ts';

let t: TestApp;
let author: TestUser;
let reader: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  author = await signup(t.app);
  reader = await signup(t.app);
  await as(t.app, author).put(`/api/authors/${author.id}`, {
    first_name: 'Émile',
    last_name: 'Zola',
  });
});
afterAll(() => t.close());

const CONTENT = [
  '<p>Line one<br>line two &amp; more — “quotes” &lt;tag&gt;&nbsp;end</p><hr><p>After the break</p>',
  '<h2>Inside</h2><ul><li>one</li><li><strong>two</strong> <em>three</em></li></ul><blockquote><p>quoted</p></blockquote>',
];

async function uploadCover(bookId: number) {
  const form = multipart('image', await makeImage('png', 120, 180), 'cover.png', 'image/png');
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/books/${bookId}/cover`,
    headers: { ...form.headers, authorization: `Bearer ${author.token}` },
    payload: form.payload,
  });
  expect(res.statusCode).toBe(200);
  return res.json().href as string;
}

let counter = 0;
async function book(options: { published: boolean; title?: string }) {
  const created = await createBook(t.app, author, options.title ?? `Exported ${++counter}`, {
    published: options.published,
    summary: 'A tale & more',
  });
  const one = await createChapter(
    t.app,
    author,
    created.id,
    { title: 'The <First> Chapter', content: CONTENT[0] },
    { published: true },
  );
  const draft = await createChapter(t.app, author, created.id, {
    title: 'Unfinished',
    content: '<p>draft text</p>',
  });
  const two = await createChapter(
    t.app,
    author,
    created.id,
    { title: 'Second', content: CONTENT[1] },
    { published: true },
  );
  return { book: created, one, two, draft };
}

async function download(bookId: number, who?: TestUser) {
  return as(t.app, who).get(`/api/books/${bookId}/export.epub`);
}

/** Unzips an EPUB and checks what every reading system relies on. Answers the parsed pieces. */
async function inspectEpub(bytes: Buffer) {
  // The mimetype entry: first, stored, without extra field, exact content (OCF 3.3).
  expect(bytes.readUInt32LE(0)).toBe(0x04034b50);
  expect(bytes.readUInt16LE(8)).toBe(0); // compression method: stored
  const nameLength = bytes.readUInt16LE(26);
  expect(bytes.readUInt16LE(28)).toBe(0); // extra field length
  expect(bytes.subarray(30, 30 + nameLength).toString()).toBe('mimetype');
  expect(bytes.subarray(30 + nameLength, 30 + nameLength + 20).toString()).toBe(
    'application/epub+zip',
  );

  const zip = await ZipArchive.open(bytes);
  expect(zip.names[0]).toBe('mimetype');
  for (const name of zip.names.filter((n) => /\.(xml|opf|ncx|xhtml)$/.test(n)))
    parseXml(await zip.readText(name), name);

  const container = parseXml(await zip.readText('META-INF/container.xml'));
  const opfPath = attribute(
    child(child(child(container, 'container'), 'rootfiles'), 'rootfile'),
    'full-path',
  )!;
  expect(opfPath).toBe('OEBPS/content.opf');
  const pkg = child(parseXml(await zip.readText(opfPath)), 'package');
  expect(attribute(pkg, 'version')).toBe('3.0');
  const metadata = child(pkg, 'metadata');
  const identifier = child(metadata, 'dc:identifier');
  expect(attribute(identifier, 'id')).toBe(attribute(pkg, 'unique-identifier'));
  expect(textOf(identifier)).toMatch(
    /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  );
  const modified = children(metadata, 'meta').find(
    (m) => attribute(m, 'property') === 'dcterms:modified',
  );
  expect(textOf(modified)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

  const manifest = new Map(
    children(child(pkg, 'manifest'), 'item').map((i) => [
      attribute(i, 'id')!,
      {
        href: attribute(i, 'href')!,
        type: attribute(i, 'media-type')!,
        properties: attribute(i, 'properties'),
      },
    ]),
  );
  for (const item of manifest.values()) expect(zip.has(`OEBPS/${item.href}`), item.href).toBe(true);
  const nav = [...manifest.values()].find((i) => i.properties === 'nav');
  expect(nav).toBeDefined();
  const spine = children(child(pkg, 'spine'), 'itemref').map(
    (r) => manifest.get(attribute(r, 'idref')!)!.href,
  );

  const navBody = child(child(parseXml(await zip.readText(`OEBPS/${nav!.href}`)), 'html'), 'body');
  const tocNav = children(navBody, 'nav').find((n) => attribute(n, 'epub:type') === 'toc');
  const toc = children(child(tocNav, 'ol'), 'li').map((li) => ({
    title: textOf(children(li, 'a')),
    href: attribute(child(li, 'a'), 'href')!,
  }));

  const chapters = [];
  for (const href of spine.filter((h) => h.startsWith('text/'))) {
    const html = child(parseXml(await zip.readText(`OEBPS/${href}`), href), 'html');
    expect(attribute(html, 'xmlns')).toBe('http://www.w3.org/1999/xhtml');
    chapters.push({
      href,
      title: textOf(children(child(html, 'head'), 'title')),
      xhtml: await zip.readText(`OEBPS/${href}`),
    });
  }
  return { zip, metadata, manifest, spine, toc, chapters };
}

describe('EPUB export', () => {
  it('exports a published book as a valid EPUB 3 with metadata, cover, table of contents and published chapters', async () => {
    const { book: b } = await book({ published: true });
    const coverHref = await uploadCover(b.id);
    const res = await download(b.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/epub+zip');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="${b.title.replace(/ /g, '-')}.epub"; filename*=UTF-8''${encodeURIComponent(`${b.title}.epub`)}`,
    );

    const epub = await inspectEpub(res.rawPayload);
    expect(textOf(epub.metadata['dc:title'])).toBe(b.title);
    expect(textOf(epub.metadata['dc:creator'])).toBe('Émile Zola');
    expect(textOf(epub.metadata['dc:language'])).toBe('en');
    expect(textOf(epub.metadata['dc:description'])).toBe('A tale & more');

    // Published chapters only, in reading order, in the spine and in the nav alike.
    expect(epub.chapters.map((c) => c.title)).toEqual(['The <First> Chapter', 'Second']);
    expect(epub.toc.map((e) => e.title)).toEqual(['The <First> Chapter', 'Second']);
    expect(epub.toc.map((e) => e.href)).toEqual(epub.chapters.map((c) => c.href));
    expect(epub.chapters.map((c) => c.xhtml).join()).not.toContain('draft text');

    // The sanitized HTML became XHTML: void elements closed, entities as characters or XML escapes.
    const first = epub.chapters[0]!.xhtml;
    expect(first).toContain('Line one<br/>line two &amp; more — “quotes” &lt;tag&gt;\u00a0end');
    expect(first).toContain('<hr/>');
    expect(epub.chapters[1]!.xhtml).toContain('<li><strong>two</strong> <em>three</em></li>');

    // The cover is the stored image, declared as the cover.
    const cover = [...epub.manifest.values()].find((i) => i.properties === 'cover-image');
    expect(cover?.type).toMatch(/^image\/(png|jpeg)$/);
    const stored = await t.app.inject({ method: 'GET', url: coverHref });
    expect((await epub.zip.read(`OEBPS/${cover!.href}`)).equals(stored.rawPayload)).toBe(true);
    expect(epub.spine[0]).toBe('cover.xhtml');
  });

  it('keeps drafts to their author: readers get 404, the author gets every chapter', async () => {
    const { book: b } = await book({ published: false });
    expect((await download(b.id)).statusCode).toBe(404);
    expect((await download(b.id, reader)).statusCode).toBe(404);
    const own = await download(b.id, author);
    expect(own.statusCode).toBe(200);
    const epub = await inspectEpub(own.rawPayload);
    expect(epub.chapters.map((c) => c.title)).toEqual([
      'The <First> Chapter',
      'Unfinished',
      'Second',
    ]);
    expect([...epub.manifest.values()].some((i) => i.properties === 'cover-image')).toBe(false);
  });

  it('leaves the draft chapters of a published book out, even for the reader who asks', async () => {
    const { book: b } = await book({ published: true });
    const epub = await inspectEpub((await download(b.id, reader)).rawPayload);
    expect(epub.chapters.map((c) => c.title)).toEqual(['The <First> Chapter', 'Second']);
  });

  it('exports a book without chapters as a valid EPUB with its title page', async () => {
    const empty = await createBook(t.app, author, `Empty ${++counter}`, { published: true });
    const epub = await inspectEpub((await download(empty.id)).rawPayload);
    expect(epub.chapters).toEqual([]);
    expect(epub.spine).toEqual(['title.xhtml']);
    expect(epub.toc).toHaveLength(1);
  });

  it('gives a safe ASCII file name for any title', async () => {
    const { book: b } = await book({
      published: true,
      title: 'Ça va? "Quotes"/../ & Ünïcödé 北京',
    });
    const res = await download(b.id);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="Ca-va-Quotes.-Unicode\.epub"; filename\*=UTF-8''/,
    );
    const onlyCjk = await createBook(t.app, author, '北京', { published: true });
    expect((await download(onlyCjk.id)).headers['content-disposition']).toContain(
      `filename="book-${onlyCjk.id}.epub"`,
    );
  });

  it('answers 404 for a book that does not exist', async () => {
    expect((await download(999_999)).statusCode).toBe(404);
    expect((await download(0)).statusCode).toBe(404);
  });
});

const titlesIn = async (bytes: Buffer) => (await inspectEpub(bytes)).chapters.map((c) => c.title);

describe('kept EPUBs', () => {
  it('serves a second export without building it again, and builds anew after any change', async () => {
    const { book: b, one, two, draft } = await book({ published: true });
    const before = t.ctx.epubs.builds;
    const first = await download(b.id);
    expect(t.ctx.epubs.builds).toBe(before + 1);
    const second = await download(b.id, reader);
    expect(t.ctx.epubs.builds).toBe(before + 1);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);

    // An edit of a chapter's text.
    await as(t.app, author).put(`/api/books/${b.id}/chapters/${two.id}`, {
      content: '<p>Rewritten ending</p>',
    });
    const edited = await download(b.id);
    expect(t.ctx.epubs.builds).toBe(before + 2);
    expect((await inspectEpub(edited.rawPayload)).chapters[1]!.xhtml).toContain('Rewritten ending');

    // A new order (which leaves the chapters' own timestamps as they were).
    const order = await as(t.app, author).put(`/api/books/${b.id}/chapters`, {
      chapters: [
        { id: two.id, chapter_order: 1 },
        { id: one.id, chapter_order: 2 },
        { id: draft.id, chapter_order: 3 },
      ],
    });
    expect(order.statusCode).toBe(200);
    expect(await titlesIn((await download(b.id)).rawPayload)).toEqual([
      'Second',
      'The <First> Chapter',
    ]);
    expect(t.ctx.epubs.builds).toBe(before + 3);

    // The book's own details, and the author's name on the cover page.
    await as(t.app, author).put(`/api/books/${b.id}`, {
      title: `${b.title} (revised)`,
      summary: 'A tale & more',
      is_published: true,
    });
    const retitled = await inspectEpub((await download(b.id)).rawPayload);
    expect(textOf(retitled.metadata['dc:title'])).toBe(`${b.title} (revised)`);
    await as(t.app, author).put(`/api/authors/${author.id}`, { first_name: 'Émilie' });
    const renamed = await inspectEpub((await download(b.id)).rawPayload);
    expect(textOf(renamed.metadata['dc:creator'])).toBe('Émilie Zola');
    await as(t.app, author).put(`/api/authors/${author.id}`, { first_name: 'Émile' });
    expect(t.ctx.epubs.builds).toBe(before + 5);
  });

  it("never serves the author's EPUB with drafts to a reader, nor a reader's to the author", async () => {
    const { book: b } = await book({ published: true });
    const withDrafts = ['The <First> Chapter', 'Unfinished', 'Second'];
    const published = ['The <First> Chapter', 'Second'];
    expect(await titlesIn((await download(b.id, author)).rawPayload)).toEqual(withDrafts);
    expect(await titlesIn((await download(b.id, reader)).rawPayload)).toEqual(published);
    expect(await titlesIn((await download(b.id)).rawPayload)).toEqual(published);
    expect(await titlesIn((await download(b.id, author)).rawPayload)).toEqual(withDrafts);
  });

  it('keeps a chapter unpublished meanwhile out of the readers’ file', async () => {
    const { book: b, two } = await book({ published: true });
    expect(await titlesIn((await download(b.id)).rawPayload)).toEqual([
      'The <First> Chapter',
      'Second',
    ]);
    await as(t.app, author).put(`/api/books/${b.id}/chapters/${two.id}`, { is_published: false });
    expect(await titlesIn((await download(b.id, reader)).rawPayload)).toEqual([
      'The <First> Chapter',
    ]);
  });
});

describe('a book that changes while its EPUB is made', () => {
  /**
   * The export's context with its database handle changed so that, once the chapter list has
   * been read and before any text is, `meanwhile` runs with that list (a plugin sees each
   * statement's result; the list is the one result with exactly these columns).
   */
  function exportingWhile(
    meanwhile: (list: Array<{ id: number; title: string }>) => Promise<unknown[] | void>,
  ) {
    const plugin: KyselyPlugin = {
      transformQuery: (args) => args.node,
      async transformResult(args) {
        const first = args.result.rows[0];
        if (!first || Object.keys(first).join() !== 'id,title,updated_at') return args.result;
        const rows =
          (await meanwhile(args.result.rows as Array<{ id: number; title: string }>)) ??
          args.result.rows;
        return { ...args.result, rows: rows as typeof args.result.rows };
      },
    };
    return { ...t.ctx, db: t.ctx.db.withPlugin(plugin) };
  }
  const readerViewer = () => ({
    id: reader.id,
    username: reader.username,
    sessionId: 0,
    signedInAt: new Date().toISOString(),
  });

  it('starts over from a new list when a chapter is unpublished between the list and its text', async () => {
    const { book: b, two } = await book({ published: true });
    let lists = 0;
    const ctx = exportingWhile(async () => {
      if (++lists === 1)
        await as(t.app, author).put(`/api/books/${b.id}/chapters/${two.id}`, {
          is_published: false,
        });
    });
    const { bytes } = await exportEpub(ctx, readerViewer(), b.id);
    // The title of the chapter taken back is nowhere in the file, not even as an empty chapter.
    expect(await titlesIn(bytes)).toEqual(['The <First> Chapter']);
    expect(lists).toBe(2);
  });

  it('gives up with 503 and a clear message when the chapters keep changing', async () => {
    const { book: b } = await book({ published: true });
    // Each list names a chapter whose text is gone by the time it is read.
    const ctx = exportingWhile(async (list) => [...list, { ...list[0]!, id: 2_000_000_000 }]);
    const refusal = await exportEpub(ctx, readerViewer(), b.id).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).status).toBe(503);
    expect((refusal as AppError).message).toBe(
      'The book changed while its EPUB was being made; please try again',
    );
  });
});

describe('the size cap', () => {
  it('refuses a book larger than EXPORT_MAX_MB with 413 and a clear message, and does not try again', async () => {
    const small = await createTestApp({ EXPORT_MAX_MB: '0.02' });
    try {
      const writer = await signup(small.app);
      const big = await createBook(small.app, writer, 'Too big to carry', { published: true });
      // Random letters: about 40 KB that compression cannot shrink below the 20 KB cap.
      const noise = crypto.randomBytes(30_000).toString('base64');
      await createChapter(
        small.app,
        writer,
        big.id,
        { title: 'Noise', content: `<p>${noise}</p>` },
        { published: true },
      );
      const refused = await as(small.app, null).get(`/api/books/${big.id}/export.epub`);
      expect(refused.statusCode).toBe(413);
      expect(refused.json()).toEqual({
        detail: 'This book is too large to export as one EPUB file (more than 0.02 MB)',
        code: 'payload_too_large',
      });
      const builds = small.ctx.epubs.builds;
      expect((await as(small.app, null).get(`/api/books/${big.id}/export.epub`)).statusCode).toBe(
        413,
      );
      expect(small.ctx.epubs.builds).toBe(builds);
    } finally {
      await small.close();
    }
  });
});
