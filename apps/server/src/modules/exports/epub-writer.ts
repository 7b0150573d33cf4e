import { escapeXml as x } from './xhtml.ts';
import { writeZip, type ZipItem } from './zip.ts';

export interface EpubChapter {
  title: string;
  /** Well-formed XHTML body content. */
  xhtml: string;
}

export interface EpubSource {
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
  cover: { bytes: Buffer; extension: 'jpg' | 'png' | 'webp' } | null;
  chapters: EpubChapter[];
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

function opf(book: EpubSource, coverFile: string | null): string {
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
    ...book.chapters.map(
      (_, i) =>
        `<item id="chapter-${i + 1}" href="${chapterFile(i)}" media-type="application/xhtml+xml"/>`,
    ),
  ];
  const spine = [
    ...(coverFile ? ['<itemref idref="cover"/>'] : []),
    '<itemref idref="title-page"/>',
    ...book.chapters.map((_, i) => `<itemref idref="chapter-${i + 1}"/>`),
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

function nav(book: EpubSource): string {
  const entries = book.chapters.map(
    (c, i) => `<li><a href="${chapterFile(i)}">${x(c.title)}</a></li>`,
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
${book.chapters.length > 0 ? `<li><a epub:type="bodymatter" href="${chapterFile(0)}">Start of content</a></li>\n` : ''}</ol>
</nav>`;
  return xhtmlPage('Contents', book.language, body, 'style.css');
}

/** The EPUB 2 table of contents, for older reading systems. */
function ncx(book: EpubSource): string {
  const points = book.chapters.map(
    (c, i) =>
      `<navPoint id="nav-${i + 1}" playOrder="${i + 1}"><navLabel><text>${x(c.title)}</text></navLabel><content src="${chapterFile(i)}"/></navPoint>`,
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

function titlePage(book: EpubSource): string {
  const body = `<section epub:type="titlepage" class="title-page">
<h1>${x(book.title)}</h1>
<p>${x(book.creator)}</p>
${book.description ? `<p>${x(book.description)}</p>\n` : ''}</section>`;
  return xhtmlPage(book.title, book.language, body, 'style.css');
}

/**
 * An EPUB 3 package: mimetype first and stored, the container, the package document with
 * metadata, a nav document (plus an NCX), a title page, the cover when there is one, and one
 * XHTML file per chapter in reading order.
 */
export async function buildEpub(book: EpubSource): Promise<Buffer> {
  const coverFile = book.cover ? `images/cover.${book.cover.extension}` : null;
  const items: ZipItem[] = [
    { name: 'mimetype', data: 'application/epub+zip', store: true },
    { name: 'META-INF/container.xml', data: CONTAINER },
    { name: 'OEBPS/content.opf', data: opf(book, coverFile) },
    { name: 'OEBPS/nav.xhtml', data: nav(book) },
    { name: 'OEBPS/toc.ncx', data: ncx(book) },
    { name: 'OEBPS/style.css', data: STYLE },
    { name: 'OEBPS/title.xhtml', data: titlePage(book) },
  ];
  if (book.cover && coverFile) {
    // Images are compressed already; storing them saves work for nothing lost.
    items.push({ name: `OEBPS/${coverFile}`, data: book.cover.bytes, store: true });
    const body = `<section epub:type="cover" class="cover"><img src="${coverFile}" alt="${x(book.title)}"/></section>`;
    items.push({
      name: 'OEBPS/cover.xhtml',
      data: xhtmlPage(book.title, book.language, body, 'style.css'),
    });
  }
  book.chapters.forEach((chapter, i) => {
    const body = `<section epub:type="chapter">\n<h1>${x(chapter.title)}</h1>\n${chapter.xhtml}\n</section>`;
    items.push({
      name: `OEBPS/${chapterFile(i)}`,
      data: xhtmlPage(chapter.title, book.language, body, '../style.css'),
    });
  });
  return writeZip(items);
}
