import { escapeXml as x } from './xhtml.ts';
import type { ZipWriter } from './zip.ts';

/** What an EPUB says about its book, and the chapters' titles, known before any chapter's text. */
export interface EpubBook {
  /** A URI, e.g. urn:uuid:... */
  identifier: string;
  title: string;
  language: string;
  creator: string;
  description: string;
  publisher: string;
  /** ISO date of first publication, when published. */
  published: string | null;
  /** ISO timestamp of the last change. */
  modified: string;
  cover: { bytes: Uint8Array; extension: 'jpg' | 'png' | 'webp' } | null;
  /** The chapters' titles in reading order: the package, the nav and the NCX list them first. */
  chapterTitles: string[];
}

const MEDIA_TYPES = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' } as const;

/** EPUB wants CCYY-MM-DDThh:mm:ssZ for dcterms:modified: no fractions of a second. */
const epubDate = (iso: string) => new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');

const chapterFile = (index: number) => `text/chapter-${String(index + 1).padStart(4, '0')}.xhtml`;

function xhtmlPage(title: string, lang: string, body: string, stylesheet: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${x(lang)}" lang="${x(lang)}">
<head>
<title>${x(title)}</title>
<link rel="stylesheet" type="text/css" href="${stylesheet}"/>
</head>
<body>
${body}
</body>
</html>
`;
}

const CONTAINER = `<?xml version="1.0" encoding="utf-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles>
<rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
</rootfiles>
</container>
`;

const STYLE = `body { font-family: serif; line-height: 1.5; margin: 0 5%; }
h1 { text-align: center; margin: 2em 0 1em; }
p { margin: 0 0 0.8em; }
.title-page { text-align: center; margin-top: 20%; }
.cover { text-align: center; margin: 0; padding: 0; }
.cover img { max-width: 100%; max-height: 100%; }
`;

function opf(book: EpubBook, coverFile: string | null): string {
  const items = [
    '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
    '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>',
    '<item id="style" href="style.css" media-type="text/css"/>',
    ...(coverFile && book.cover
      ? [
          `<item id="cover-image" href="${coverFile}" media-type="${MEDIA_TYPES[book.cover.extension]}" properties="cover-image"/>`,
          '<item id="cover" href="cover.xhtml" media-type="application/xhtml+xml"/>',
        ]
      : []),
    '<item id="title-page" href="title.xhtml" media-type="application/xhtml+xml"/>',
    ...book.chapterTitles.map(
      (_, i) =>
        `<item id="chapter-${i + 1}" href="${chapterFile(i)}" media-type="application/xhtml+xml"/>`,
    ),
  ];
  const spine = [
    ...(coverFile ? ['<itemref idref="cover"/>'] : []),
    '<itemref idref="title-page"/>',
    ...book.chapterTitles.map((_, i) => `<itemref idref="chapter-${i + 1}"/>`),
  ];
  return `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="${x(book.language)}">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:identifier id="book-id">${x(book.identifier)}</dc:identifier>
<dc:title>${x(book.title)}</dc:title>
<dc:language>${x(book.language)}</dc:language>
<dc:creator id="creator">${x(book.creator)}</dc:creator>
<dc:publisher>${x(book.publisher)}</dc:publisher>
${book.description ? `<dc:description>${x(book.description)}</dc:description>\n` : ''}${book.published ? `<dc:date>${epubDate(book.published)}</dc:date>\n` : ''}<meta property="dcterms:modified">${epubDate(book.modified)}</meta>
${coverFile ? '<meta name="cover" content="cover-image"/>\n' : ''}</metadata>
<manifest>
${items.join('\n')}
</manifest>
<spine toc="ncx">
${spine.join('\n')}
</spine>
</package>
`;
}

function nav(book: EpubBook): string {
  const entries = book.chapterTitles.map(
    (title, i) => `<li><a href="${chapterFile(i)}">${x(title)}</a></li>`,
  );
  const body = `<nav epub:type="toc" id="toc">
<h1>Contents</h1>
<ol>
${entries.length > 0 ? entries.join('\n') : '<li><a href="title.xhtml">' + x(book.title) + '</a></li>'}
</ol>
</nav>
<nav epub:type="landmarks" id="landmarks" hidden="hidden">
<ol>
<li><a epub:type="titlepage" href="title.xhtml">Title page</a></li>
${book.chapterTitles.length > 0 ? `<li><a epub:type="bodymatter" href="${chapterFile(0)}">Start of content</a></li>\n` : ''}</ol>
</nav>`;
  return xhtmlPage('Contents', book.language, body, 'style.css');
}

/** The EPUB 2 table of contents, for older reading systems. */
function ncx(book: EpubBook): string {
  const points = book.chapterTitles.map(
    (title, i) =>
      `<navPoint id="nav-${i + 1}" playOrder="${i + 1}"><navLabel><text>${x(title)}</text></navLabel><content src="${chapterFile(i)}"/></navPoint>`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
<head><meta name="dtb:uid" content="${x(book.identifier)}"/></head>
<docTitle><text>${x(book.title)}</text></docTitle>
<navMap>
${points.join('\n')}
</navMap>
</ncx>
`;
}

function titlePage(book: EpubBook): string {
  const body = `<section epub:type="titlepage" class="title-page">
<h1>${x(book.title)}</h1>
<p>${x(book.creator)}</p>
${book.description ? `<p>${x(book.description)}</p>\n` : ''}</section>`;
  return xhtmlPage(book.title, book.language, body, 'style.css');
}

/**
 * Writes an EPUB 3 package into a zip: mimetype first and stored, the container, the package
 * document with metadata, a nav document (plus an NCX), a title page and the cover when there is
 * one as soon as it is made; then one XHTML file per chapter, in reading order, as each is
 * given, so a book's text never has to be in memory at once. (Loaded in a worker thread: no
 * TypeScript-only syntax here.)
 */
export class EpubWriter {
  private readonly book: EpubBook;
  private readonly zip: ZipWriter;
  private written = 0;

  constructor(book: EpubBook, zip: ZipWriter) {
    this.book = book;
    this.zip = zip;
    const coverFile = book.cover ? `images/cover.${book.cover.extension}` : null;
    zip.add({ name: 'mimetype', data: 'application/epub+zip', store: true });
    zip.add({ name: 'META-INF/container.xml', data: CONTAINER });
    zip.add({ name: 'OEBPS/content.opf', data: opf(book, coverFile) });
    zip.add({ name: 'OEBPS/nav.xhtml', data: nav(book) });
    zip.add({ name: 'OEBPS/toc.ncx', data: ncx(book) });
    zip.add({ name: 'OEBPS/style.css', data: STYLE });
    zip.add({ name: 'OEBPS/title.xhtml', data: titlePage(book) });
    if (book.cover && coverFile) {
      // Images are compressed already; storing them saves work for nothing lost.
      zip.add({ name: `OEBPS/${coverFile}`, data: book.cover.bytes, store: true });
      const body = `<section epub:type="cover" class="cover"><img src="${coverFile}" alt="${x(book.title)}"/></section>`;
      zip.add({
        name: 'OEBPS/cover.xhtml',
        data: xhtmlPage(book.title, book.language, body, 'style.css'),
      });
    }
  }

  /** The next chapter's body, as well-formed XHTML; its title is the one listed for it. */
  addChapter(xhtml: string): void {
    const index = this.written;
    const title = this.book.chapterTitles[index];
    if (title === undefined) throw new Error(`the book lists ${index} chapters, not more`);
    const body = `<section epub:type="chapter">\n<h1>${x(title)}</h1>\n${xhtml}\n</section>`;
    this.zip.add({
      name: `OEBPS/${chapterFile(index)}`,
      data: xhtmlPage(title, this.book.language, body, '../style.css'),
    });
    this.written++;
  }

  /** Closes the package once every listed chapter has been added. */
  end(): void {
    const listed = this.book.chapterTitles.length;
    if (this.written !== listed)
      throw new Error(`${this.written} of the ${listed} listed chapters were added`);
    this.zip.end();
  }
}
