import path from 'node:path/posix';
import type { ChildNode, Element } from 'domhandler';
import { DomUtils, parseDocument } from 'htmlparser2';
import { htmlToText, isBlankHtml, sanitizeContent } from '../../../html/sanitize.ts';
import {
  finishChapters,
  headingLine,
  normalizeSpace,
  splitIntoChapters,
  type RawChapter,
} from './chapters.ts';
import { ImportFileError } from './errors.ts';
import { epubTypes, scanDocument } from './scan.ts';
import type { ParsedBook, ParsedCover, ParseOptions, Progress } from './types.ts';
import { ZipArchive } from './zip.ts';

// ---------------------------------------------------------------------------------------------
// Reading the XML of the package: names compared without their namespace prefix, as producers
// write `dc:title`, `opf:item` or plain `item` alike.

const localName = (name: string) => name.slice(name.lastIndexOf(':') + 1).toLowerCase();

function elements(nodes: ChildNode[], name: string): Element[] {
  return DomUtils.findAll((el) => localName(el.name) === name, nodes);
}

function childElements(parent: Element, name: string): Element[] {
  return parent.children.filter(
    (c): c is Element => c.type === 'tag' && localName(c.name) === name,
  );
}

function attr(el: Element, name: string): string | undefined {
  for (const [key, value] of Object.entries(el.attribs)) if (localName(key) === name) return value;
  return undefined;
}

const textOf = (node: ChildNode) => normalizeSpace(DomUtils.textContent(node));

const parseXml = (text: string) => parseDocument(text, { xmlMode: true }).children;
/** Content and nav documents are parsed as HTML (named entities such as &nbsp; occur), tolerating XHTML's self-closing tags. */
const parseXhtml = (text: string) => parseDocument(text, { recognizeSelfClosing: true }).children;

/** A percent-encoded part of an href, decoded; a malformed escape leaves it as written. */
function decodedOrAsWritten(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** An href inside the archive, relative to the file that holds it; null when it leaves the archive or is external. */
function resolveHref(
  fromDir: string,
  href: string,
): { file: string; fragment: string | null } | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return null;
  const [rawPath = '', rawFragment] = href.split('#', 2);
  const decoded = decodedOrAsWritten(rawPath.split('?')[0]!);
  const fragment = rawFragment ? decodedOrAsWritten(rawFragment) : null;
  if (decoded === '') return { file: fromDir, fragment };
  const file = path.normalize(path.join(fromDir, decoded)).replace(/^\.\//, '');
  return file.startsWith('../') || file.startsWith('/') ? null : { file, fragment };
}

// ---------------------------------------------------------------------------------------------
// The package document

interface ManifestItem {
  id: string;
  file: string;
  mediaType: string;
  properties: string[];
}

interface SpineItem {
  item: ManifestItem;
  linear: boolean;
}

interface Package {
  title: string | null;
  author: string | null;
  description: string | null;
  language: string | null;
  manifest: Map<string, ManifestItem>;
  spine: SpineItem[];
  ncxId: string | null;
  coverId: string | null;
  /** EPUB 2 guide: file → reference types. */
  guide: Array<{ file: string; type: string }>;
}

async function packagePath(zip: ZipArchive): Promise<string> {
  if (zip.has('META-INF/container.xml')) {
    const rootfile = elements(
      parseXml(await zip.readText('META-INF/container.xml')),
      'rootfile',
    ).find(
      (el) => !attr(el, 'media-type') || attr(el, 'media-type') === 'application/oebps-package+xml',
    );
    const fullPath = rootfile && attr(rootfile, 'full-path');
    if (fullPath && zip.has(fullPath)) return zip.resolve(fullPath)!;
  }
  // Some tools leave out or break the container; the package document is still findable.
  const opf = zip.names.find((name) => name.toLowerCase().endsWith('.opf'));
  if (!opf)
    throw new ImportFileError(
      'This is not an EPUB: there is no package document (META-INF/container.xml or a .opf file)',
    );
  return opf;
}

function readPackage(xml: string, opfDir: string): Package {
  const nodes = parseXml(xml);
  const metadata = elements(nodes, 'metadata')[0];
  const first = (name: string) => {
    const el = metadata && elements([metadata], name)[0];
    return el ? textOf(el) || null : null;
  };
  const manifest = new Map<string, ManifestItem>();
  for (const el of elements(nodes, 'item')) {
    const id = attr(el, 'id');
    const href = attr(el, 'href');
    const resolved = href ? resolveHref(opfDir, href) : null;
    if (!id || !resolved) continue;
    manifest.set(id, {
      id,
      file: resolved.file,
      mediaType: (attr(el, 'media-type') ?? '').toLowerCase(),
      properties: (attr(el, 'properties') ?? '').split(/\s+/).filter(Boolean),
    });
  }
  const spineEl = elements(nodes, 'spine')[0];
  if (!spineEl)
    throw new ImportFileError(
      'The EPUB has no spine: its package document does not say in which order to read its files',
    );
  const spine: SpineItem[] = [];
  for (const ref of childElements(spineEl, 'itemref')) {
    const item = manifest.get(attr(ref, 'idref') ?? '');
    if (item) spine.push({ item, linear: attr(ref, 'linear') !== 'no' });
  }
  if (spine.length === 0)
    throw new ImportFileError('The EPUB has an empty spine: no file is listed to read');
  const coverMeta = elements(nodes, 'meta').find((el) => attr(el, 'name') === 'cover');
  const guide = elements(nodes, 'reference').flatMap((el) => {
    const resolved = resolveHref(opfDir, attr(el, 'href') ?? '');
    return resolved ? [{ file: resolved.file, type: (attr(el, 'type') ?? '').toLowerCase() }] : [];
  });
  const description = first('description');
  return {
    title: first('title'),
    author: first('creator'),
    // Descriptions often carry escaped HTML.
    description: description ? htmlToText(sanitizeContent(description)) || null : null,
    language: first('language'),
    manifest,
    spine,
    ncxId: attr(spineEl, 'toc') ?? null,
    coverId: (coverMeta && attr(coverMeta, 'content')) ?? null,
    guide,
  };
}

// ---------------------------------------------------------------------------------------------
// The table of contents: EPUB 3 nav document, else EPUB 2 NCX

interface TocEntry {
  label: string;
  file: string | null;
  fragment: string | null;
  parent: TocEntry | null;
}

interface Toc {
  entries: TocEntry[];
  /** EPUB 3 landmarks: file → types. */
  landmarks: Array<{ file: string; type: string }>;
}

function navEntries(list: Element, dir: string, parent: TocEntry | null, out: TocEntry[]) {
  for (const li of childElements(list, 'li')) {
    const label = li.children.find(
      (c): c is Element => c.type === 'tag' && ['a', 'span'].includes(localName(c.name)),
    );
    const href = label && attr(label, 'href');
    const target = href ? resolveHref(dir, href) : null;
    const entry: TocEntry = {
      label: label ? textOf(label) : '',
      file: target?.file ?? null,
      fragment: target?.fragment ?? null,
      parent,
    };
    out.push(entry);
    const nested = childElements(li, 'ol')[0] ?? childElements(li, 'ul')[0];
    if (nested) navEntries(nested, dir, entry, out);
  }
}

function readNav(xml: string, navFile: string): Toc {
  const dir = path.dirname(navFile);
  const navs = elements(parseXhtml(xml), 'nav');
  const typed = (type: string) => navs.find((n) => epubTypes(n.attribs).includes(type));
  const tocNav = typed('toc') ?? navs.find((n) => n.attribs.id === 'toc') ?? navs[0];
  const entries: TocEntry[] = [];
  const list = tocNav && (elements([tocNav], 'ol')[0] ?? elements([tocNav], 'ul')[0]);
  if (list) navEntries(list, dir, null, entries);
  const landmarksNav = typed('landmarks');
  const landmarks = landmarksNav
    ? elements([landmarksNav], 'a').flatMap((a) => {
        const target = resolveHref(dir, attr(a, 'href') ?? '');
        return target ? epubTypes(a.attribs).map((type) => ({ file: target.file, type })) : [];
      })
    : [];
  return { entries, landmarks };
}

function readNcx(xml: string, ncxFile: string): Toc {
  const dir = path.dirname(ncxFile);
  const entries: TocEntry[] = [];
  const walk = (points: Element[], parent: TocEntry | null) => {
    for (const point of points) {
      const label = childElements(point, 'navlabel')[0];
      const content = childElements(point, 'content')[0];
      const target = content ? resolveHref(dir, attr(content, 'src') ?? '') : null;
      const entry: TocEntry = {
        label: label ? textOf(label) : '',
        file: target?.file ?? null,
        fragment: target?.fragment ?? null,
        parent,
      };
      entries.push(entry);
      walk(childElements(point, 'navpoint'), entry);
    }
  };
  const navMap = elements(parseXml(xml), 'navmap')[0];
  if (navMap) walk(childElements(navMap, 'navpoint'), null);
  return { entries, landmarks: [] };
}

async function readToc(zip: ZipArchive, pkg: Package, warnings: string[]): Promise<Toc> {
  const items = [...pkg.manifest.values()];
  const nav = items.find((i) => i.properties.includes('nav'));
  const ncx =
    (pkg.ncxId ? pkg.manifest.get(pkg.ncxId) : undefined) ??
    items.find((i) => i.mediaType === 'application/x-dtbncx+xml');
  let toc: Toc = { entries: [], landmarks: [] };
  try {
    if (nav && zip.has(nav.file)) toc = readNav(await zip.readText(nav.file), nav.file);
    if (toc.entries.length === 0 && ncx && zip.has(ncx.file))
      toc = { ...readNcx(await zip.readText(ncx.file), ncx.file), landmarks: toc.landmarks };
  } catch (error) {
    if (error instanceof ImportFileError && /zip bomb/.test(error.message)) throw error;
    warnings.push('The table of contents could not be read; chapters were taken file by file');
    return { entries: [], landmarks: [] };
  }
  return { ...toc, entries: toc.entries.filter((e) => e.label !== '' || e.file !== null) };
}

// ---------------------------------------------------------------------------------------------
// Front and back matter

/** epub:type values (EPUB 3 structural semantics) and guide types (EPUB 2) that mark matter around the story. */
const MATTER_TYPES = new Set([
  'cover',
  'frontmatter',
  'backmatter',
  'titlepage',
  'title-page',
  'halftitlepage',
  'halftitle',
  'fulltitle',
  'copyright-page',
  'copyright',
  'imprint',
  'imprimatur',
  'colophon',
  'toc',
  'landmarks',
  'loi',
  'lot',
  'lov',
  'dedication',
  'epigraph',
  'acknowledgments',
  'acknowledgements',
  'foreword',
  'preface',
  'introduction',
  'afterword',
  'appendix',
  'index',
  'glossary',
  'bibliography',
  'endnotes',
  'footnotes',
  'rearnotes',
  'notes',
  'seriespage',
  'contributors',
  'other-credits',
  'errata',
  'revision-history',
  'credits',
  'publisher',
  'about',
]);

/** File names that producers give matter pages. */
const MATTER_FILE =
  /^(?:\d+[-_. ]*)?(?:cover(?:page)?|title(?:[-_ ]?page)?|half[-_ ]?title(?:[-_ ]?page)?|copyright(?:[-_ ]?page)?|uncopyright|imprint|colophon|toc|contents|table[-_ ]of[-_ ]contents|nav|dedication|epigraph|acknowledge?ments?|front[-_ ]?matter|back[-_ ]?matter|about[-_ ]the[-_ ](?:author|publisher)|also[-_ ]by|endnotes|footnotes|landmarks|credits|license)(?:[-_. ]*\d+)?$/i;

/** TOC labels that name matter rather than story. */
const MATTER_LABEL =
  /^(?:cover|title ?page|half ?title(?: ?page)?|copyright(?: page)?|uncopyright|imprint|colophon|(?:table of )?contents|toc|dedication|epigraph|acknowledge?ments?|about the (?:author|publisher)|also by\b.*|endnotes|footnotes|landmarks|front ?matter|back ?matter)$/i;

interface MatterRules {
  byFile: Map<string, Set<string>>;
  /** Spine index where the story starts according to the landmarks or guide, if they say. */
  bodyStart: number | null;
}

function matterRules(pkg: Package, toc: Toc): MatterRules {
  const byFile = new Map<string, Set<string>>();
  for (const { file, type } of [...pkg.guide, ...toc.landmarks]) {
    byFile.set(file, (byFile.get(file) ?? new Set()).add(type));
  }
  const bodyIndex = pkg.spine.findIndex(({ item }) => {
    const types = byFile.get(item.file);
    return types?.has('bodymatter') || types?.has('text') || types?.has('start');
  });
  return { byFile, bodyStart: bodyIndex >= 0 ? bodyIndex : null };
}

function isMatterFile(
  rules: MatterRules,
  index: number,
  file: string,
  bodyTypes: string[],
  innerTypes: string[],
): boolean {
  if (bodyTypes.includes('bodymatter')) return false;
  if ([...bodyTypes, ...innerTypes.slice(0, 3)].some((t) => MATTER_TYPES.has(t))) return true;
  const marked = rules.byFile.get(file);
  if (marked && [...marked].some((t) => MATTER_TYPES.has(t))) return true;
  if (rules.bodyStart !== null && index < rules.bodyStart) return true;
  return MATTER_FILE.test(path.basename(file).replace(/\.[a-z]+$/i, ''));
}

// ---------------------------------------------------------------------------------------------
// Cover

const IMAGE_TYPES = /^image\/(jpeg|png|gif|webp|svg\+xml)$/;
const MAX_COVER_BYTES = 15 * 1024 * 1024;

async function readCover(
  zip: ZipArchive,
  pkg: Package,
  rules: MatterRules,
): Promise<ParsedCover | null> {
  const items = [...pkg.manifest.values()];
  const candidates: ManifestItem[] = [];
  const add = (item: ManifestItem | undefined) =>
    item && IMAGE_TYPES.test(item.mediaType) && candidates.push(item);
  add(items.find((i) => i.properties.includes('cover-image')));
  if (pkg.coverId)
    add(pkg.manifest.get(pkg.coverId) ?? items.find((i) => i.file.endsWith(pkg.coverId!)));
  // A cover page (guide or landmark 'cover') shows the cover image.
  for (const [file, types] of rules.byFile) {
    if (!types.has('cover') || !zip.has(file) || /\.(jpe?g|png|gif|webp|svg)$/i.test(file))
      continue;
    const page = parseXhtml(await zip.readText(file));
    const img = DomUtils.findOne((el) => ['img', 'image'].includes(localName(el.name)), page);
    const src = img && (attr(img, 'src') ?? attr(img, 'href'));
    const target = src ? resolveHref(path.dirname(file), src) : null;
    if (target) add(items.find((i) => i.file === target.file));
  }
  add(
    items.find(
      (i) => IMAGE_TYPES.test(i.mediaType) && /cover/i.test(`${i.id} ${path.basename(i.file)}`),
    ),
  );
  for (const item of candidates) {
    if (!zip.has(item.file)) continue;
    const bytes = await zip.read(item.file);
    if (bytes.length <= MAX_COVER_BYTES)
      return { bytes: new Uint8Array(bytes), mediaType: item.mediaType };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Chapters

const BARE_NUMBER = /^(?:\d+|[ivxlcdm]+)\.?$/i;
const comparable = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
/** Longest group name a chapter title carries; a longer one is a sentence, not a name. */
const GROUP_NAME_MAX = 40;

/** What a group is called in its chapters' titles: its label up to a colon ("First Period" of "First Period: The Loss of the Diamond"), if that is short. */
function groupName(label: string): string | null {
  const name = normalizeSpace(label.split(/:\s/, 1)[0] ?? '');
  return name && name.length <= GROUP_NAME_MAX ? name : null;
}

/**
 * A TOC label as a chapter title: the chapter's own label, however deep it sits, so titles stay
 * short enough to scan. Only a bare number ("I", "12"), which books in parts repeat, carries the
 * short name of the nearest group that has one ("Part I: I", "First Period: XXIII"), never a
 * chain of them. The groups themselves open their first chapter as heading lines (decision 0025).
 */
function chapterTitle(entry: TocEntry, isStoryGroup: (e: TocEntry) => boolean): string {
  if (!BARE_NUMBER.test(entry.label)) return entry.label;
  for (let parent = entry.parent; parent; parent = parent.parent) {
    const name = isStoryGroup(parent) ? groupName(parent.label) : null;
    if (name) return `${name}: ${entry.label}`;
  }
  return entry.label;
}

/** The entry's groups that belong to the story, outermost first: not the book's own title, not matter. */
function storyGroups(entry: TocEntry, isStoryGroup: (e: TocEntry) => boolean): TocEntry[] {
  const groups: TocEntry[] = [];
  for (let parent = entry.parent; parent; parent = parent.parent)
    if (isStoryGroup(parent)) groups.unshift(parent);
  return groups;
}

const depthOf = (entry: TocEntry) => {
  let depth = 0;
  for (let parent = entry.parent; parent; parent = parent.parent) depth++;
  return depth;
};

const XHTML_TYPES = new Set([
  'application/xhtml+xml',
  'text/html',
  'application/xml',
  'text/xml',
  '',
]);
const startsWithHeading = (html: string) => /^\s*<h[1-6][\s>]/i.test(sanitizeContent(html));

/**
 * EPUB 2 and 3. Chapters follow the spine; the table of contents, when there is one, says where
 * each chapter starts (a file, or an anchor inside one) and what it is called. Content between
 * two TOC entries belongs to the first; a file the TOC does not list continues the previous
 * chapter unless it opens with a heading. Without a TOC, each file is split like an HTML document.
 * Front and back matter become chapters marked as such; which are imported is decided later.
 * A nested TOC's groups (parts, books, narratives) are never lost: a group's own title page opens
 * its first chapter, and a group without a page of its own opens it as a heading line.
 */
export async function parseEpub(
  bytes: Uint8Array,
  options: ParseOptions,
  progress: Progress,
): Promise<ParsedBook> {
  const zip = await ZipArchive.open(bytes, options.zipLimits);
  progress(0.05, 'Reading the package');
  const opfPath = await packagePath(zip);
  const pkg = readPackage(
    await zip.readText(opfPath),
    path.dirname(opfPath) === '.' ? '' : path.dirname(opfPath),
  );
  const warnings: string[] = [];
  const toc = await readToc(zip, pkg, warnings);
  const rules = matterRules(pkg, toc);
  const bookTitle = pkg.title ?? options.filename.replace(/\.[^.]+$/, '');

  // Where chapters start, per file. Entries at one place keep the innermost: a part whose entry
  // points at its first chapter's file is that chapter's group, not the chapter.
  const entriesByFile = new Map<string, TocEntry[]>();
  for (const entry of toc.entries) {
    if (!entry.file) continue;
    const list = entriesByFile.get(entry.file) ?? [];
    const same = list.findIndex((e) => e.fragment === entry.fragment);
    if (same < 0) list.push(entry);
    else if (depthOf(entry) > depthOf(list[same]!)) list[same] = entry;
    entriesByFile.set(entry.file, list);
  }
  const groups = new Set(toc.entries.flatMap((e) => (e.parent ? [e.parent] : [])));
  const matterFiles = new Set<string>();
  const isMatterEntry = (entry: TocEntry) =>
    MATTER_LABEL.test(entry.label) || (entry.file !== null && matterFiles.has(entry.file));
  const isStoryGroup = (entry: TocEntry) =>
    entry.label !== '' &&
    comparable(entry.label) !== comparable(bookTitle) &&
    !isMatterEntry(entry);

  const raw: Array<RawChapter & { entry: TocEntry | null }> = [];
  /** The chapter that content not listed in the TOC continues. */
  let current: (typeof raw)[number] | null = null;
  const documents = pkg.spine.filter(
    ({ item }) => XHTML_TYPES.has(item.mediaType) && !item.properties.includes('nav'),
  );

  for (const [index, { item, linear }] of documents.entries()) {
    progress(
      0.1 + (0.85 * index) / documents.length,
      `Reading part ${index + 1} of ${documents.length}`,
    );
    if (!zip.has(item.file)) {
      warnings.push(`${item.file} is listed in the spine but missing from the archive`);
      continue;
    }
    const entries = entriesByFile.get(item.file) ?? [];
    const doc = scanDocument(
      await zip.readText(item.file),
      new Set(entries.flatMap((e) => (e.fragment ? [e.fragment] : []))),
    );
    const spineIndex = pkg.spine.findIndex((s) => s.item === item);
    const fileIsMatter =
      !linear || isMatterFile(rules, spineIndex, item.file, doc.bodyTypes, doc.innerTypes);
    if (fileIsMatter) matterFiles.add(item.file);

    if (toc.entries.length === 0) {
      const { chapters } = splitIntoChapters(sanitizeContent(doc.html));
      raw.push(
        ...chapters.map((c) => ({
          ...c,
          fallbackTitle: doc.title,
          matter: fileIsMatter,
          entry: null,
        })),
      );
      continue;
    }

    const starts = entries
      .map((entry) => ({ entry, at: entry.fragment ? (doc.cuts.get(entry.fragment) ?? 0) : 0 }))
      .sort((a, b) => a.at - b.at);
    const firstStart = starts[0]?.at ?? doc.html.length;
    const lead = firstStart > 0 ? sanitizeContent(doc.html.slice(0, firstStart)) : '';
    if (!isBlankHtml(lead)) {
      if (current && current.matter === fileIsMatter && !startsWithHeading(lead)) {
        current.html += lead;
      } else {
        current = {
          title: null,
          html: lead,
          fallbackTitle: doc.title,
          matter: fileIsMatter,
          entry: null,
        };
        raw.push(current);
      }
    }
    starts.forEach(({ entry, at }, i) => {
      current = {
        title: chapterTitle(entry, isStoryGroup),
        html: sanitizeContent(doc.html.slice(at, starts[i + 1]?.at ?? doc.html.length)),
        fallbackTitle: doc.title,
        matter: fileIsMatter || isMatterEntry(entry),
        entry,
      };
      raw.push(current);
    });
  }

  // Each story group opens its first chapter: with its own page when it has one (a title page,
  // which finishChapters folds into the chapter after it), else with a heading line.
  const withPage = new Set(raw.flatMap((c) => (c.entry && !isBlankHtml(c.html) ? [c.entry] : [])));
  const opened = new Set<TocEntry>();
  for (const chapter of raw) {
    if (!chapter.entry || chapter.matter) continue;
    const outer = storyGroups(chapter.entry, isStoryGroup);
    chapter.depth = outer.length + 1;
    chapter.group = groups.has(chapter.entry);
    let lead = '';
    outer.forEach((group, level) => {
      if (opened.has(group)) return;
      opened.add(group);
      if (!withPage.has(group)) lead += headingLine(group.label, level + 2);
    });
    chapter.lead = lead;
  }

  progress(0.95, 'Cleaning up chapters');
  const chapters = finishChapters(raw, bookTitle);
  let cover: ParsedCover | null = null;
  try {
    cover = await readCover(zip, pkg, rules);
  } catch (error) {
    warnings.push(
      `The cover could not be read${error instanceof ImportFileError ? `: ${error.message}` : ''}`,
    );
  }
  return {
    format: 'epub',
    title: pkg.title,
    author: pkg.author,
    description: pkg.description,
    language: pkg.language,
    cover,
    chapters,
    warnings,
  };
}
