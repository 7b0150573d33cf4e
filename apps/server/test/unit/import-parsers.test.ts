import { describe, expect, it } from 'vitest';
import { parseInWorker } from '../../src/modules/imports/parse-in-worker.ts';
import {
  detectFormat,
  ImportFileError,
  parseBook,
  type ParseOptions,
} from '../../src/modules/imports/parsers/index.ts';
import { chooseChapters } from '../../src/modules/imports/plan.ts';
import { isChapterLine } from '../../src/modules/imports/parsers/chapters.ts';
import { writeZip } from '../../src/modules/exports/zip.ts';
import { declareSize, docx, epub2, epub3, prose, type TestDoc } from '../helpers/ebooks.ts';
import { makeImage } from '../helpers/images.ts';

const options = (over: Partial<ParseOptions> = {}): ParseOptions => ({
  filename: 'book.epub',
  ...over,
});
/** A file read as an import reads it: the proposal, and the chapters imported when nobody changes it. */
async function parse(
  bytes: Uint8Array,
  format: Parameters<typeof parseBook>[1],
  { keepFrontMatter = false, ...over }: Partial<ParseOptions> & { keepFrontMatter?: boolean } = {},
) {
  const book = await parseBook(bytes, format, options(over), () => {});
  const chosen = chooseChapters(book.chapters, { keepFrontMatter, plan: null });
  return {
    ...book,
    proposed: book.chapters,
    chapters: chosen.chapters.map(({ title, html }) => ({ title, html })),
    warnings: [...book.warnings, ...chosen.warnings],
  };
}
const titles = (book: { chapters: Array<{ title: string }> }) => book.chapters.map((c) => c.title);
const failure = async (work: Promise<unknown>) => {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportFileError);
  return (error as Error).message;
};

/** A book with front matter of every kind, a story of three chapters and back matter. */
function storyDocs(): TestDoc[] {
  return [
    { file: 'cover.xhtml', body: '<div><img src="../images/cover.png" alt="cover"/></div>' },
    {
      file: 'title.xhtml',
      bodyType: 'frontmatter',
      toc: 'Title Page',
      body: '<section epub:type="titlepage"><h1>The Tale</h1><p>by Someone</p></section>',
    },
    {
      file: 'copyright.xhtml',
      toc: 'Copyright',
      body: '<p>© 2024 Someone. All rights reserved.</p>',
    },
    {
      file: 'dedication.xhtml',
      toc: 'For Mum',
      body: '<section epub:type="dedication"><p>To my mother.</p></section>',
    },
    {
      file: 'chapter-1.xhtml',
      toc: 'The Start',
      body: '<section epub:type="chapter"><h2>The Start</h2><p>It <b>began</b> with <i>rain</i>.<a id="p1"/> The rain went on.</p><h3>A scene</h3><p>More &amp; more.</p></section>',
    },
    {
      file: 'chapter-2.xhtml',
      toc: 'Middle',
      body: '<h1>Middle</h1><p onclick="steal()">Things happened.</p><script>alert("x")</script><p>See <a href="chapter-3.xhtml">next</a> or <a href="https://example.com/">this</a>.</p>',
    },
    { file: 'chapter-3.xhtml', toc: 'End', body: '<p>It ended.</p>' },
    {
      file: 'colophon.xhtml',
      bodyType: 'backmatter',
      toc: 'Colophon',
      body: '<p>Set in type.</p>',
    },
  ];
}

describe('EPUB 3', () => {
  it('reads title, author, description, language and cover from the package, and chapters from the nav in spine order', async () => {
    const cover = await makeImage('png', 30, 45);
    const book = await parse(
      await epub3({
        title: 'The Tale',
        author: 'Someone Else',
        description: '<p>A <b>fine</b> tale.</p>',
        language: 'fr',
        docs: storyDocs(),
        cover: { bytes: cover, mediaType: 'image/png' },
        landmarks: [
          ['cover', 'cover.xhtml'],
          ['bodymatter', 'chapter-1.xhtml'],
        ],
      }),
      'epub',
    );
    expect(book).toMatchObject({
      format: 'epub',
      title: 'The Tale',
      author: 'Someone Else',
      description: 'A fine tale.',
      language: 'fr',
    });
    expect(Buffer.from(book.cover!.bytes).equals(cover)).toBe(true);
    expect(book.cover!.mediaType).toBe('image/png');
    expect(titles(book)).toEqual(['The Start', 'Middle', 'End']);
    // The title page, copyright, dedication and colophon; the cover page shows only a picture.
    expect(book.warnings.join()).toMatch(/Skipped 4 front or back matter sections/);
  });

  it('sanitizes content like the editor: scripts and handlers gone, formatting kept, a repeated title heading dropped', async () => {
    const book = await parse(await epub3({ title: 'T', docs: storyDocs() }), 'epub');
    const [start, middle] = book.chapters;
    // The self-closed anchor did not swallow the rest of the paragraph into a link.
    expect(start!.html).toBe(
      '<p>It <strong>began</strong> with <em>rain</em>. The rain went on.</p><h3>A scene</h3><p>More &amp; more.</p>',
    );
    expect(middle!.html).not.toMatch(/script|alert|onclick|steal/);
    expect(middle!.html).toContain('<p>Things happened.</p>');
    // Links between files of the archive lead nowhere once imported; web links stay.
    expect(middle!.html).toContain(
      '<p>See next or <a href="https://example.com/" rel="nofollow noopener">this</a>.</p>',
    );
  });

  it('reads a malformed percent escape in a link as written, not as a crash', async () => {
    const book = await parse(
      await epub2({
        title: 'Escapes',
        docs: storyDocs(),
        landmarks: [['text', 'chapter-1.xhtml#part%zz']],
      }),
      'epub',
    );
    expect(titles(book)).toContain('The Start');
  });

  it('keeps front and back matter on request, but never a blank page', async () => {
    const book = await parse(
      await epub3({ title: 'T', docs: storyDocs(), landmarks: [['cover', 'cover.xhtml']] }),
      'epub',
      { keepFrontMatter: true },
    );
    expect(titles(book)).toEqual([
      'Title Page',
      'Copyright',
      'For Mum',
      'The Start',
      'Middle',
      'End',
      'Colophon',
    ]);
  });

  it('splits a file at the anchors its table of contents points to', async () => {
    const body =
      '<h1>Both</h1><p>Opening words.</p><section id="a"><h2>Alpha</h2><p>First part.</p></section><section id="b"><h2>Beta</h2><p>Second part.</p></section>';
    const book = await parse(
      await epub3({
        title: 'T',
        docs: [
          {
            file: 'both.xhtml',
            toc: 'Both',
            anchors: [
              ['Alpha', 'a'],
              ['Beta', 'b'],
            ],
            body,
          },
        ],
      }),
      'epub',
    );
    expect(book.chapters).toEqual([
      { title: 'Both', html: '<p>Opening words.</p>' },
      { title: 'Alpha', html: '<p>First part.</p>' },
      { title: 'Beta', html: '<p>Second part.</p>' },
    ]);
  });

  it('names numbered chapters after their part, and folds a part page that holds only a heading into its first chapter', async () => {
    const docs: TestDoc[] = [
      { file: 'part-1.xhtml', toc: 'Part One', body: '<h1>Part One</h1>' },
      { file: 'c1.xhtml', toc: 'I', nested: true, body: '<h2>I</h2><p>One.</p>' },
      { file: 'c2.xhtml', toc: 'II', nested: true, body: '<h2>II</h2><p>Two.</p>' },
      { file: 'part-2.xhtml', toc: 'Part Two', body: '<h1>Part Two</h1>' },
      { file: 'c3.xhtml', toc: 'I', nested: true, body: '<h2>I</h2><p>Three.</p>' },
    ];
    const book = await parse(await epub3({ title: 'T', docs }), 'epub');
    expect(book.chapters).toEqual([
      { title: 'Part One: I', html: '<h2>Part One</h2><p>One.</p>' },
      { title: 'Part One: II', html: '<p>Two.</p>' },
      { title: 'Part Two: I', html: '<h2>Part Two</h2><p>Three.</p>' },
    ]);
  });

  it('continues a chapter into files the table of contents does not list, unless they open with a heading', async () => {
    const docs: TestDoc[] = [
      { file: 'a.xhtml', toc: 'Long one', body: '<p>Start of a long chapter.</p>' },
      { file: 'a-split.xhtml', body: '<p>Its continuation.</p>' },
      { file: 'b.xhtml', body: '<h2>Unlisted</h2><p>Its own chapter.</p>' },
    ];
    const book = await parse(await epub3({ title: 'T', docs }), 'epub');
    expect(book.chapters).toEqual([
      { title: 'Long one', html: '<p>Start of a long chapter.</p><p>Its continuation.</p>' },
      { title: 'Unlisted', html: '<p>Its own chapter.</p>' },
    ]);
  });

  it('without a table of contents, takes each file as chapters titled by their headings or <title>', async () => {
    const docs: TestDoc[] = [
      { file: 'copyright.xhtml', body: '<p>© me</p>' },
      { file: 'one.xhtml', body: '<h2>First</h2><p>One.</p>' },
      { file: 'two.xhtml', toc: 'From the title element', body: '<p>Two.</p>' },
    ];
    const book = await parse(await epub3({ title: 'T', docs, noToc: true }), 'epub');
    expect(book.chapters).toEqual([
      { title: 'First', html: '<p>One.</p>' },
      { title: 'From the title element', html: '<p>Two.</p>' },
    ]);
  });

  it('skips non-linear spine items unless front matter is kept', async () => {
    const docs: TestDoc[] = [
      { file: 'story.xhtml', toc: 'Story', body: '<p>Story.</p>' },
      { file: 'notes.xhtml', toc: 'Popup notes', linear: false, body: '<p>Notes.</p>' },
    ];
    expect(titles(await parse(await epub3({ title: 'T', docs }), 'epub'))).toEqual(['Story']);
    expect(
      titles(await parse(await epub3({ title: 'T', docs }), 'epub', { keepFrontMatter: true })),
    ).toEqual(['Story', 'Popup notes']);
  });
});

describe('EPUB 2', () => {
  it('takes chapter titles from the NCX, the cover from <meta name="cover">, and skips what the guide marks', async () => {
    const cover = await makeImage('jpeg', 20, 30);
    const docs: TestDoc[] = [
      { file: 'titlepage.xhtml', toc: 'The Tale', body: '<h1>The Tale</h1>' },
      { file: 'toc.xhtml', toc: 'Contents', body: '<p>1. One</p><p>2. Two</p>' },
      { file: 'legal.xhtml', body: '<p>© 1901</p>' },
      { file: 'ch1.xhtml', toc: 'Chapter One', body: '<h2>Chapter One</h2><p>First.</p>' },
      { file: 'ch2.xhtml', toc: 'Chapter Two', body: '<p>Second.</p>' },
    ];
    const book = await parse(
      await epub2({
        title: 'The Tale',
        author: 'Old Author',
        docs,
        cover: { bytes: cover, mediaType: 'image/jpeg' },
        landmarks: [
          ['title-page', 'titlepage.xhtml'],
          ['toc', 'toc.xhtml'],
          ['copyright-page', 'legal.xhtml'],
          ['text', 'ch1.xhtml'],
        ],
      }),
      'epub',
    );
    expect(book).toMatchObject({ title: 'The Tale', author: 'Old Author' });
    expect(book.chapters).toEqual([
      { title: 'Chapter One', html: '<p>First.</p>' },
      { title: 'Chapter Two', html: '<p>Second.</p>' },
    ]);
    expect(Buffer.from(book.cover!.bytes).equals(cover)).toBe(true);
  });
});

describe('bad EPUBs', () => {
  const story = (extra: Partial<Parameters<typeof epub3>[0]> = {}) =>
    epub3({ title: 'T', docs: storyDocs(), ...extra });

  it('refuses a corrupt or truncated zip', async () => {
    expect(await failure(parse(Buffer.from('definitely not a zip file at all'), 'epub'))).toMatch(
      /not a readable zip archive/,
    );
    const whole = await story();
    expect(await failure(parse(whole.subarray(0, whole.length - 40), 'epub'))).toMatch(
      /not a readable zip archive/,
    );
  });

  it('refuses an archive that declares a huge expansion, before inflating anything', async () => {
    const bomb = declareSize(await story(), 'OPS/text/chapter-1.xhtml', 3_000_000_000);
    expect(await failure(parse(bomb, 'epub'))).toMatch(/zip bomb/);
  });

  it('stops an entry that inflates past the size it declares', async () => {
    const docs: TestDoc[] = [
      { file: 'bomb.xhtml', toc: 'Bomb', body: `<p>${'a'.repeat(8 * 1024 * 1024)}</p>` },
    ];
    const lying = declareSize(await epub3({ title: 'T', docs }), 'OPS/text/bomb.xhtml', 1000);
    expect(await failure(parse(lying, 'epub'))).toMatch(
      /holds more data than the archive declares: refusing what looks like a zip bomb/,
    );
  });

  it('refuses an archive with too many files', async () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ name: `junk/${i}.txt`, data: 'x' }));
    const book = await story({ extra: many });
    expect(
      await failure(
        parse(book, 'epub', {
          zipLimits: { maxEntries: 20, maxTotalBytes: 1e9, maxEntryBytes: 1e9 },
        }),
      ),
    ).toMatch(/holds \d+ files; at most 20/);
  });

  it('names a missing or empty spine', async () => {
    const noSpine = `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/><manifest><item id="a" href="text/a.xhtml" media-type="application/xhtml+xml"/></manifest></package>`;
    expect(
      await failure(
        parse(await epub3({ docs: [{ file: 'a.xhtml', body: '<p>a</p>' }], opf: noSpine }), 'epub'),
      ),
    ).toMatch(/no spine/);
    const emptySpine = noSpine.replace('</manifest>', '</manifest><spine></spine>');
    expect(
      await failure(
        parse(
          await epub3({ docs: [{ file: 'a.xhtml', body: '<p>a</p>' }], opf: emptySpine }),
          'epub',
        ),
      ),
    ).toMatch(/empty spine/);
  });

  it('says when a zip is not an EPUB at all, or holds no text', async () => {
    expect(
      await failure(parse(await writeZip([{ name: 'readme.txt', data: 'hello' }]), 'epub')),
    ).toMatch(/not an EPUB/);
    const blank = await epub3({
      title: 'T',
      docs: [
        {
          file: 'a.xhtml',
          toc: 'A',
          body: '<div><img src="x.png"/></div><script>var a = "text";</script>',
        },
      ],
    });
    expect(await failure(parse(blank, 'epub'))).toMatch(/No chapter text/);
  });
});

describe('DOCX', () => {
  const paragraphs = [
    { style: 'Title' as const, runs: [{ text: 'Doc Title From Style' }] },
    { runs: [{ text: 'A foreword before any chapter.' }] },
    { style: 'Heading1' as const, runs: [{ text: 'Chapter One' }] },
    {
      runs: [
        { text: 'Plain, ' },
        { text: 'bold', bold: true },
        { text: ' and ' },
        { text: 'italic', italic: true },
        { text: '.' },
      ],
    },
    { list: 'bullet' as const, runs: [{ text: 'first point' }] },
    { list: 'bullet' as const, runs: [{ text: 'second point' }] },
    { style: 'Heading2' as const, runs: [{ text: 'Chapter Two' }] },
    { list: 'number' as const, runs: [{ text: 'step one' }] },
    { style: 'Heading3' as const, runs: [{ text: 'A subheading' }] },
    { runs: [{ text: 'The end & all.' }] },
  ];

  it('splits at Heading 1 and 2, keeping bold, italic and lists; title and author from the document properties', async () => {
    const book = await parse(
      await docx({ title: 'Core Title', author: 'Word Author', paragraphs }),
      'docx',
      { filename: 'story.docx' },
    );
    expect(book).toMatchObject({ format: 'docx', title: 'Core Title', author: 'Word Author' });
    expect(book.chapters).toEqual([
      { title: 'Doc Title From Style', html: '<p>A foreword before any chapter.</p>' },
      {
        title: 'Chapter One',
        html: '<p>Plain, <strong>bold</strong> and <em>italic</em>.</p><ul><li>first point</li><li>second point</li></ul>',
      },
      {
        title: 'Chapter Two',
        html: '<ol><li>step one</li></ol><h3>A subheading</h3><p>The end &amp; all.</p>',
      },
    ]);
  });

  it('takes a leading Title as the book title when the properties have none', async () => {
    const book = await parse(
      await docx({
        paragraphs: paragraphs.filter((p) => p.runs[0]!.text !== 'A foreword before any chapter.'),
      }),
      'docx',
    );
    expect(book.title).toBe('Doc Title From Style');
    expect(titles(book)).toEqual(['Chapter One', 'Chapter Two']);
  });

  it('refuses a zip that is not a Word document, and a bomb inside one', async () => {
    expect(await failure(parse(await writeZip([{ name: 'a.txt', data: 'a' }]), 'docx'))).toMatch(
      /not a Word document/,
    );
    const bomb = declareSize(
      await docx({
        paragraphs,
        extra: [{ name: 'word/media/big.bin', data: Buffer.alloc(4 * 1024 * 1024) }],
      }),
      'word/media/big.bin',
      100,
    );
    expect(await failure(parse(bomb, 'docx'))).toMatch(/zip bomb/);
    expect(await failure(parse(Buffer.from('PK\u0003\u0004 broken'), 'docx'))).toMatch(
      /not a readable zip archive/,
    );
  });
});

describe('Markdown, HTML and plain text', () => {
  const bytes = (text: string) => Buffer.from(text, 'utf8');

  it('Markdown: front matter, a leading # title, chapters at headings, sanitized', async () => {
    const md = `---\ntitle: "Front Title"\nauthor: Jo Writer\ndescription: Short one\n---\n# Book Heading\n\n## One\n\nSome *emphasis* and **strength**.\n\n<script>alert(1)</script>\n\n## Two\n\n- a\n- b\n`;
    const book = await parse(bytes(md), 'markdown', { filename: 'x.md' });
    expect(book).toMatchObject({
      title: 'Front Title',
      author: 'Jo Writer',
      description: 'Short one',
    });
    expect(book.chapters).toEqual([
      { title: 'One', html: '<p>Some <em>emphasis</em> and <strong>strength</strong>.</p>' },
      { title: 'Two', html: '<ul>\n<li>a</li>\n<li>b</li>\n</ul>' },
    ]);
    expect((await parse(bytes('# Only Heading\n\n## A\n\ntext\n'), 'markdown')).title).toBe(
      'Only Heading',
    );
  });

  it('Markdown: a part heading with only an epigraph under it opens the next chapter', async () => {
    const md = [
      '# The Book',
      '# Part One',
      '## Chapter 1',
      'Text one.',
      '## Chapter 2',
      'Text two.',
      '# Part Two',
      '> Not all those who wander',
      '## Chapter 3',
      'Text three.',
    ].join('\n\n');
    const book = await parse(bytes(md), 'markdown', { filename: 'x.md' });
    expect(book.title).toBe('The Book');
    expect(book.chapters).toEqual([
      { title: 'Chapter 1', html: '<h2>Part One</h2><p>Text one.</p>' },
      { title: 'Chapter 2', html: '<p>Text two.</p>' },
      {
        title: 'Chapter 3',
        html: '<h2>Part Two</h2><blockquote>\n<p>Not all those who wander</p>\n</blockquote><p>Text three.</p>',
      },
    ]);
  });

  it('Markdown without headings splits at chapter lines', async () => {
    const book = await parse(
      bytes('Chapter 1\n\nOnce.\n\nChapter 2: The Return\n\nTwice.\n'),
      'markdown',
      { filename: 'my_story.md' },
    );
    expect(book.title).toBeNull();
    expect(book.chapters).toEqual([
      { title: 'Chapter 1', html: '<p>Once.</p>' },
      { title: 'Chapter 2: The Return', html: '<p>Twice.</p>' },
    ]);
  });

  it('HTML: <title> and meta author, chapters at h1/h2, XHTML self-closing tags understood, scripts gone', async () => {
    const html = `<!DOCTYPE html><html><head><title>Page Title</title><meta name="author" content="Ann Author"><style>p{}</style></head>
      <body><div class="c"><h2>First</h2><p>One<a name="x"/> still one.</p></div><h2>Second</h2><p>Two<br/>lines</p><script>evil()</script></body></html>`;
    const book = await parse(bytes(html), 'html', { filename: 'page.html' });
    expect(book).toMatchObject({ title: 'Page Title', author: 'Ann Author' });
    expect(book.chapters).toEqual([
      { title: 'First', html: '<p>One still one.</p>' },
      { title: 'Second', html: '<p>Two<br>lines</p>' },
    ]);
  });

  it('plain text: chapter lines split, wrapped lines joined, the preamble kept', async () => {
    const text =
      'A short preface\nwrapped over two lines.\n\nCHAPTER I\nThe first line right under the heading.\n\nMore of it.\n\nChapter II. The Second\n\nLast words & <angles>.\n';
    const book = await parse(bytes(text), 'text', { filename: 'the_story.txt' });
    expect(book.title).toBeNull();
    expect(book.chapters).toEqual([
      { title: 'Untitled Chapter', html: '<p>A short preface wrapped over two lines.</p>' },
      {
        title: 'CHAPTER I',
        html: '<p>The first line right under the heading.</p><p>More of it.</p>',
      },
      { title: 'Chapter II. The Second', html: '<p>Last words &amp; &lt;angles&gt;.</p>' },
    ]);
  });

  it('plain text without chapters is one chapter named after the file; Windows-1252 is decoded', async () => {
    const latin = Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x6f, 0x6b, 0x94]); // Café “ok”
    const book = await parse(latin, 'text', { filename: 'old_notes.txt' });
    expect(book.chapters).toEqual([{ title: 'old notes', html: '<p>Café “ok”</p>' }]);
  });

  it('cuts a chapter longer than the editor accepts into parts', async () => {
    const paragraph = `${'word '.repeat(2000)}\n\n`;
    const book = await parse(bytes(`Chapter 1\n\n${paragraph.repeat(100)}`), 'text');
    expect(book.chapters.length).toBeGreaterThan(1);
    expect(book.chapters[0]!.title).toBe('Chapter 1 (part 1)');
    expect(book.chapters.every((c) => c.html.length <= 900_000)).toBe(true);
  });

  it('recognizes chapter lines, not prose that starts like one', () => {
    for (const line of [
      'Chapter 12',
      'CHAPTER XII',
      'Chapter Twelve: The Return',
      'chapter twenty-one',
      'Prologue',
      'Epilogue — After',
      'Chapter 3 The Storm',
    ]) {
      expect(isChapterLine(line), line).toBe(true);
    }
    for (const line of [
      'Chapter did not end',
      'Chapter 1 was long.',
      'The chapter 2',
      'Chapters 1-3',
      `Chapter 1: ${'x'.repeat(130)}`,
    ]) {
      expect(isChapterLine(line), line).toBe(false);
    }
  });
});

describe('format detection', () => {
  it('follows the hint, then the file name, then the content', async () => {
    const anEpub = await epub3({ title: 'T', docs: storyDocs() });
    const aDocx = await docx({ paragraphs: [{ runs: [{ text: 'x' }] }] });
    expect(detectFormat(anEpub, 'upload.bin')).toBe('epub');
    expect(detectFormat(aDocx, 'upload')).toBe('docx');
    expect(detectFormat(Buffer.from('<!doctype html><p>x'), 'upload')).toBe('html');
    expect(detectFormat(Buffer.from('Just words.'), 'upload')).toBe('text');
    expect(detectFormat(Buffer.from('# md'), 'notes.MD')).toBe('markdown');
    expect(detectFormat(Buffer.from('# md'), 'notes.txt', 'markdown')).toBe('markdown');
    expect(detectFormat(Buffer.from([0x25, 0x50, 0x44, 0x46, 0, 1, 2, 3]), 'file.pdf')).toBeNull();
    expect(detectFormat(await writeZip([{ name: 'a', data: 'b' }]), 'archive.zip')).toBeNull();
  });
});

describe('parsing in a worker thread', () => {
  it('answers the parsed book, reports progress, and turns a bad file into a clear error', async () => {
    const fractions: number[] = [];
    const book = await parseInWorker(
      {
        bytes: await epub3({ title: 'Worker Tale', docs: storyDocs() }),
        format: 'epub',
        options: options(),
      },
      (fraction) => fractions.push(fraction),
    ).result;
    expect(book.title).toBe('Worker Tale');
    // The whole proposal, matter marked; which chapters are imported is decided afterwards.
    expect(book.chapters.map((c) => [c.title, c.kind])).toEqual([
      ['Title Page', 'front'],
      ['Copyright', 'front'],
      ['For Mum', 'front'],
      ['The Start', 'body'],
      ['Middle', 'body'],
      ['End', 'body'],
      ['Colophon', 'back'],
    ]);
    expect(fractions.length).toBeGreaterThan(0);
    const bad = parseInWorker(
      { bytes: Buffer.from('nope'), format: 'epub', options: options() },
      () => {},
    );
    expect(await failure(bad.result)).toMatch(/not a readable zip archive/);
  });

  it('gives up on a file that takes too long', async () => {
    const big = await epub3({
      title: 'Slow',
      docs: Array.from({ length: 200 }, (_, i) => ({
        file: `c${i}.xhtml`,
        toc: `C${i}`,
        body: prose(50),
      })),
    });
    const slow = parseInWorker({ bytes: big, format: 'epub', options: options() }, () => {}, {
      timeoutMs: 5,
      maxHeapMb: 256,
    });
    expect(await failure(slow.result)).toMatch(/took longer than/);
  });
});
