import { writeZip, type ZipItem } from '../../src/modules/exports/zip.ts';

/**
 * Small EPUB and DOCX files made in memory for import tests, zipped with the same library the
 * export uses. Each builder writes only what its format requires, so tests show what the
 * importer relies on.
 */
const esc = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export interface TestDoc {
  /** File name under the content folder, e.g. 'chapter-1.xhtml'. */
  file: string;
  /** Inner HTML of <body>. */
  body: string;
  /** epub:type of <body> (EPUB 3), e.g. 'frontmatter'. */
  bodyType?: string;
  /** Table of contents label; leave out for a file the TOC does not list. */
  toc?: string;
  /** Entries for anchors inside the file, nested under the file's own entry: [label, id]. */
  anchors?: Array<[string, string]>;
  /** Nest this file's entry under the previous top-level entry (level 2). */
  nested?: boolean;
  /** Depth of this file's entry: 1 at the top (default), 2 under the last entry of depth 1, ... */
  level?: number;
  /**
   * Entries without a file of their own (a part that is only a heading in the table of
   * contents) opening just before this file: [label, level]. The nav shows them as a <span>;
   * the NCX, which needs a target for every entry, points them at their first file.
   */
  groups?: Array<[string, number]>;
  linear?: boolean;
}

export interface TestEpub {
  title?: string;
  author?: string;
  description?: string;
  language?: string;
  docs: TestDoc[];
  cover?: { bytes: Buffer; mediaType: 'image/png' | 'image/jpeg' };
  /** EPUB 3 landmarks / EPUB 2 guide entries: [type, file]. */
  landmarks?: Array<[string, string]>;
  /** Leave the table of contents out altogether. */
  noToc?: boolean;
  /** Extra raw entries, e.g. a bomb. */
  extra?: ZipItem[];
  /** Replace the package document. */
  opf?: string;
}

const xhtml = (
  title: string,
  body: string,
  bodyType?: string,
) => `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
<head><title>${esc(title)}</title></head>
<body${bodyType ? ` epub:type="${bodyType}"` : ''}>
${body}
</body>
</html>`;

const CONTAINER = `<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OPS/package.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>`;

/** Table of contents entries as a tree; href null for an entry without a file of its own. */
type TocNode = { label: string; href: string | null; children: TocNode[] };

function tocTree(docs: TestDoc[]): TocNode[] {
  const roots: TocNode[] = [];
  /** The last entry placed at each depth (index 0 = depth 1). */
  const open: TocNode[] = [];
  const place = (node: TocNode, level: number) => {
    const parent = level > 1 ? open[Math.min(level, open.length + 1) - 2] : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
    open.length = Math.min(level, open.length + 1) - 1;
    open.push(node);
  };
  for (const doc of docs) {
    for (const [label, level] of doc.groups ?? [])
      place({ label, href: null, children: [] }, level);
    if (doc.toc === undefined) continue;
    const node: TocNode = {
      label: doc.toc,
      href: `text/${doc.file}`,
      children: (doc.anchors ?? []).map(([label, id]) => ({
        label,
        href: `text/${doc.file}#${id}`,
        children: [],
      })),
    };
    place(node, doc.level ?? (doc.nested ? 2 : 1));
  }
  return roots;
}

/** Where an entry leads: its own file, else its first child's. */
const targetOf = (node: TocNode): string => node.href ?? targetOf(node.children[0]!);

function packageDocument(book: TestEpub, version: '2.0' | '3.0'): string {
  const items = book.docs.map(
    (d, i) => `<item id="doc${i}" href="text/${d.file}" media-type="application/xhtml+xml"/>`,
  );
  if (!book.noToc) {
    items.push(
      version === '3.0'
        ? '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
        : '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>',
    );
  }
  const coverExt = book.cover?.mediaType === 'image/png' ? 'png' : 'jpg';
  if (book.cover) {
    items.push(
      `<item id="cover-img" href="images/cover.${coverExt}" media-type="${book.cover.mediaType}"${version === '3.0' ? ' properties="cover-image"' : ''}/>`,
    );
  }
  const spine = book.docs.map(
    (d, i) => `<itemref idref="doc${i}"${d.linear === false ? ' linear="no"' : ''}/>`,
  );
  const guide =
    version === '2.0' && book.landmarks
      ? `<guide>${book.landmarks.map(([type, file]) => `<reference type="${type}" href="text/${file}" title="${type}"/>`).join('')}</guide>`
      : '';
  return `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="${version}" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">
<dc:identifier id="id">urn:test:${Math.random()}</dc:identifier>
${book.title ? `<dc:title>${esc(book.title)}</dc:title>` : ''}
${book.author ? `<dc:creator opf:role="aut">${esc(book.author)}</dc:creator>` : ''}
${book.description ? `<dc:description>${esc(book.description)}</dc:description>` : ''}
<dc:language>${book.language ?? 'en'}</dc:language>
${version === '2.0' && book.cover ? '<meta name="cover" content="cover-img"/>' : ''}
</metadata>
<manifest>${items.join('\n')}</manifest>
<spine${version === '2.0' && !book.noToc ? ' toc="ncx"' : ''}>${spine.join('\n')}</spine>
${guide}
</package>`;
}

function navDocument(book: TestEpub): string {
  const list = (nodes: TocNode[]): string =>
    `<ol>${nodes.map((n) => `<li>${n.href ? `<a href="${n.href}">${esc(n.label)}</a>` : `<span>${esc(n.label)}</span>`}${n.children.length ? list(n.children) : ''}</li>`).join('')}</ol>`;
  const landmarks = book.landmarks
    ? `<nav epub:type="landmarks"><ol>${book.landmarks.map(([type, file]) => `<li><a epub:type="${type}" href="text/${file}">${type}</a></li>`).join('')}</ol></nav>`
    : '';
  return xhtml(
    'Contents',
    `<nav epub:type="toc" id="toc"><h1>Contents</h1>${list(tocTree(book.docs))}</nav>${landmarks}`,
  );
}

function ncxDocument(book: TestEpub): string {
  let order = 0;
  const points = (nodes: TocNode[]): string =>
    nodes
      .map(
        (n) =>
          `<navPoint id="p${++order}" playOrder="${order}"><navLabel><text>${esc(n.label)}</text></navLabel><content src="${targetOf(n)}"/>${points(n.children)}</navPoint>`,
      )
      .join('');
  return `<?xml version="1.0" encoding="utf-8"?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><head/><docTitle><text>${esc(book.title ?? '')}</text></docTitle>
<navMap>${points(tocTree(book.docs))}</navMap></ncx>`;
}

async function epub(book: TestEpub, version: '2.0' | '3.0'): Promise<Buffer> {
  const items: ZipItem[] = [
    { name: 'mimetype', data: 'application/epub+zip', store: true },
    { name: 'META-INF/container.xml', data: CONTAINER },
    { name: 'OPS/package.opf', data: book.opf ?? packageDocument(book, version) },
  ];
  if (!book.noToc) {
    items.push(
      version === '3.0'
        ? { name: 'OPS/nav.xhtml', data: navDocument(book) }
        : { name: 'OPS/toc.ncx', data: ncxDocument(book) },
    );
  }
  for (const doc of book.docs) {
    items.push({
      name: `OPS/text/${doc.file}`,
      data: xhtml(doc.toc ?? doc.file, doc.body, version === '3.0' ? doc.bodyType : undefined),
    });
  }
  if (book.cover)
    items.push({
      name: `OPS/images/cover.${book.cover.mediaType === 'image/png' ? 'png' : 'jpg'}`,
      data: book.cover.bytes,
    });
  items.push(...(book.extra ?? []));
  return writeZip(items);
}

export const epub3 = (book: TestEpub) => epub(book, '3.0');
export const epub2 = (book: TestEpub) => epub(book, '2.0');

// ---------------------------------------------------------------------------------------------

export interface DocxParagraph {
  style?: 'Heading1' | 'Heading2' | 'Heading3' | 'Title';
  list?: 'bullet' | 'number';
  runs: Array<{ text: string; bold?: boolean; italic?: boolean }>;
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

function paragraphXml(p: DocxParagraph): string {
  const props = [
    p.style ? `<w:pStyle w:val="${p.style}"/>` : '',
    p.list
      ? `<w:numPr><w:ilvl w:val="0"/><w:numId w:val="${p.list === 'bullet' ? 1 : 2}"/></w:numPr>`
      : '',
  ].join('');
  const runs = p.runs
    .map(
      (r) =>
        `<w:r><w:rPr>${r.bold ? '<w:b/>' : ''}${r.italic ? '<w:i/>' : ''}</w:rPr><w:t xml:space="preserve">${esc(r.text)}</w:t></w:r>`,
    )
    .join('');
  return `<w:p>${props ? `<w:pPr>${props}</w:pPr>` : ''}${runs}</w:p>`;
}

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles ${W}>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading3"><w:name w:val="heading 3"/></w:style>
</w:styles>`;

const NUMBERING = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:numbering ${W}>
<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/></w:lvl></w:abstractNum>
<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/></w:lvl></w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>
</w:numbering>`;

export async function docx(options: {
  title?: string;
  author?: string;
  paragraphs: DocxParagraph[];
  extra?: ZipItem[];
}): Promise<Buffer> {
  const rel = (id: string, type: string, target: string) =>
    `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;
  return writeZip([
    {
      name: '[Content_Types].xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>`,
    },
    {
      name: '_rels/.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rel('rId1', 'officeDocument', 'word/document.xml')}<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`,
    },
    {
      name: 'word/_rels/document.xml.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rel('rId1', 'styles', 'styles.xml')}${rel('rId2', 'numbering', 'numbering.xml')}</Relationships>`,
    },
    {
      name: 'word/document.xml',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W}><w:body>${options.paragraphs.map(paragraphXml).join('')}</w:body></w:document>`,
    },
    { name: 'word/styles.xml', data: STYLES },
    { name: 'word/numbering.xml', data: NUMBERING },
    {
      name: 'docProps/core.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/">${options.title ? `<dc:title>${esc(options.title)}</dc:title>` : ''}${options.author ? `<dc:creator>${esc(options.author)}</dc:creator>` : ''}</cp:coreProperties>`,
    },
    ...(options.extra ?? []),
  ]);
}

// ---------------------------------------------------------------------------------------------

/**
 * Rewrites the uncompressed size an archive declares for `name` (central directory and local
 * header alike), to make archives that lie about their size, as zip bombs do.
 */
export function declareSize(zip: Buffer, name: string, size: number): Buffer {
  const out = Buffer.from(zip);
  const target = Buffer.from(name);
  for (let at = 0; at < out.length - 46; at++) {
    const signature = out.readUInt32LE(at);
    if (
      signature === 0x04034b50 &&
      out.subarray(at + 30, at + 30 + out.readUInt16LE(at + 26)).equals(target)
    )
      out.writeUInt32LE(size, at + 22);
    if (
      signature === 0x02014b50 &&
      out.subarray(at + 46, at + 46 + out.readUInt16LE(at + 28)).equals(target)
    )
      out.writeUInt32LE(size, at + 24);
  }
  return out;
}

/** A chapter body of `paragraphs` paragraphs of text. */
export function prose(paragraphs: number, seed = 'word'): string {
  return Array.from(
    { length: paragraphs },
    (_, i) => `<p>${seed} ${i} ${'lorem ipsum dolor sit amet '.repeat(8)}</p>`,
  ).join('\n');
}
