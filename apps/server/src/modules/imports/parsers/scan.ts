import { Parser } from 'htmlparser2';
import { escapeAttribute, escapeText } from '../../../html/escape.ts';

/**
 * One pass over an (X)HTML document that yields its body as plain, well-nested HTML for the
 * sanitizer, plus what the import needs to know about it. It exists because XHTML is not HTML:
 * a self-closed `<a id="x"/>` would swallow the rest of a chapter into a link if handed to an
 * HTML parser as is. Here every element is re-written with an explicit end tag.
 */
export interface ScannedDocument {
  html: string;
  /** Offsets in `html` where elements with the wanted ids start. */
  cuts: Map<string, number>;
  /** epub:type values of the body and of the first typed elements inside it. */
  bodyTypes: string[];
  innerTypes: string[];
  /** The document's <title>. */
  title: string;
  /** name → content of <meta> elements in the head. */
  meta: Map<string, string>;
}

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);
/** Subtrees that are never reading text: pictures, formulas, EPUB's note references and page markers. */
const SKIPPED_TAGS = new Set([
  'svg',
  'math',
  'nav',
  'img',
  'picture',
  'audio',
  'video',
  'object',
  'iframe',
]);
const SKIPPED_TYPES = ['noteref', 'pagebreak'];
/** Pop-up notes (an aside typed as a note) would land in the middle of the text. */
const NOTE_TYPES = ['footnote', 'endnote', 'rearnote', 'note'];
const ABSOLUTE_LINK = /^(https?:|mailto:)/i;

/** The epub:type tokens of an element, whatever prefix the document bound the EPUB namespace to. */
export function epubTypes(attribs: Record<string, string>): string[] {
  const types: string[] = [];
  for (const [name, value] of Object.entries(attribs)) {
    if (/^[a-z0-9]+:type$/i.test(name) && name.toLowerCase() !== 'xsi:type')
      types.push(...value.toLowerCase().split(/\s+/).filter(Boolean));
  }
  return types;
}

export function scanDocument(
  source: string,
  wantedIds: ReadonlySet<string> = new Set(),
): ScannedDocument {
  const result: ScannedDocument = {
    html: '',
    cuts: new Map(),
    bodyTypes: [],
    innerTypes: [],
    title: '',
    meta: new Map(),
  };
  // A fragment without <body> (plain HTML snippets do that) is all body.
  let inBody = !/<body[\s>/]/i.test(source);
  let inHead = false;
  let inTitle = false;
  let skipDepth = 0;
  let preDepth = 0;
  let out = '';
  /** Whether each open element was written out (links without a usable address are not). */
  const written: boolean[] = [];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (skipDepth > 0) {
          skipDepth++;
          return;
        }
        if (!inBody) {
          if (name === 'head') inHead = true;
          else if (name === 'title' && inHead) inTitle = true;
          else if (name === 'meta' && inHead && attribs.name && attribs.content)
            result.meta.set(attribs.name.toLowerCase(), attribs.content);
          else if (name === 'body') {
            inBody = true;
            result.bodyTypes.push(...epubTypes(attribs));
          }
          return;
        }
        const types = epubTypes(attribs);
        const popup = name === 'aside' && types.some((t) => NOTE_TYPES.includes(t));
        if (popup || SKIPPED_TAGS.has(name) || types.some((t) => SKIPPED_TYPES.includes(t))) {
          skipDepth = 1;
          return;
        }
        if (result.innerTypes.length < 8) result.innerTypes.push(...types);
        const id = attribs.id ?? (name === 'a' ? attribs.name : undefined);
        if (id !== undefined && wantedIds.has(id) && !result.cuts.has(id))
          result.cuts.set(id, out.length);
        // Only absolute links survive: links between the files of an archive lead nowhere once imported.
        const href =
          name === 'a' && attribs.href && ABSOLUTE_LINK.test(attribs.href.trim())
            ? ` href="${escapeAttribute(attribs.href.trim())}"`
            : '';
        if (name === 'pre') preDepth++;
        const write = name !== 'a' || href !== '';
        if (!VOID.has(name)) written.push(write);
        if (write) out += `<${name}${href}>`;
      },
      ontext(text) {
        if (inTitle) result.title += text;
        // Layout whitespace of the source means nothing outside <pre>; one space keeps words apart.
        else if (inBody && skipDepth === 0)
          out += escapeText(preDepth > 0 ? text : text.replace(/\s+/g, ' '));
      },
      onclosetag(name) {
        if (skipDepth > 0) {
          skipDepth--;
          return;
        }
        if (!inBody) {
          if (name === 'title') inTitle = false;
          if (name === 'head') inHead = false;
          return;
        }
        if (name === 'body') {
          inBody = false;
          return;
        }
        if (name === 'pre' && preDepth > 0) preDepth--;
        if (!VOID.has(name) && written.pop() !== false) out += `</${name}>`;
      },
    },
    {
      decodeEntities: true,
      recognizeSelfClosing: true,
      lowerCaseTags: true,
      lowerCaseAttributeNames: true,
    },
  );
  parser.write(source);
  parser.end();
  result.html = out;
  result.title = result.title.replace(/\s+/g, ' ').trim();
  return result;
}
