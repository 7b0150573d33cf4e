import mammoth from 'mammoth';
import type { ChildNode } from 'domhandler';
import { DomUtils, parseDocument } from 'htmlparser2';
import { sanitizeContent } from '../../../html/sanitize.ts';
import { finishChapters, normalizeSpace, splitIntoChapters } from './chapters.ts';
import { ImportFileError } from './errors.ts';
import type { ParsedBook, ParseOptions, Progress } from './types.ts';
import { ZipArchive } from './zip.ts';

/** dc:title, dc:creator and the description from docProps/core.xml. */
function coreProperties(xml: string) {
  const nodes: ChildNode[] = parseDocument(xml, { xmlMode: true }).children;
  const value = (name: string) => {
    const el = DomUtils.findOne(
      (e) => e.name.toLowerCase().endsWith(`:${name}`) || e.name.toLowerCase() === name,
      nodes,
    );
    return el ? normalizeSpace(DomUtils.textContent(el)) || null : null;
  };
  return {
    title: value('title'),
    creator: value('creator'),
    description: value('description') ?? value('subject'),
  };
}

/**
 * Word documents, through mammoth: headings become h1..h6, bold, italic, underline, strike and
 * lists are kept, images are dropped. Chapters split at Heading 1 and Heading 2.
 */
export async function parseDocx(
  bytes: Uint8Array,
  options: ParseOptions,
  progress: Progress,
): Promise<ParsedBook> {
  const zip = await ZipArchive.open(bytes, options.zipLimits);
  if (!zip.has('word/document.xml')) {
    throw new ImportFileError(
      'This is not a Word document: word/document.xml is missing from the archive',
    );
  }
  // Inflate every entry once under the archive's limits. Mammoth unzips again on its own, and
  // then only meets sizes already proven true: a zip bomb fails here first.
  for (const name of zip.names) await zip.read(name);
  progress(0.2, 'Reading the document');
  const core = zip.has('docProps/core.xml')
    ? coreProperties(await zip.readText('docProps/core.xml'))
    : null;
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes) },
      {
        styleMap: ['u => u', 'strike => s', "p[style-name='Title'] => h1:fresh"],
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
      },
    );
    html = result.value;
  } catch (error) {
    throw new ImportFileError(
      `The Word document could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  progress(0.8, 'Splitting chapters');
  const { docTitle, chapters } = splitIntoChapters(sanitizeContent(html));
  const title = core?.title ?? docTitle;
  return {
    format: 'docx',
    title,
    author: core?.creator ?? null,
    description: core?.description ?? null,
    language: null,
    cover: null,
    chapters: finishChapters(chapters, title ?? options.filename.replace(/\.[^.]+$/, '')),
    warnings: [],
  };
}
