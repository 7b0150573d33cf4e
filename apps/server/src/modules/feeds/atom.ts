import { escapeXml } from '../exports/xhtml.ts';

/** An Atom 1.0 document (RFC 4287), written by hand: a few elements, all text escaped. */
export interface AtomPerson {
  name: string;
  uri?: string;
}

export interface AtomEntry {
  id: string;
  title: string;
  updated: string;
  published: string;
  link: string;
  author: AtomPerson;
  summary: string;
  category?: string;
}

export interface AtomFeed {
  id: string;
  title: string;
  subtitle?: string;
  updated: string;
  selfLink: string;
  alternateLink: string;
  author?: AtomPerson;
  entries: AtomEntry[];
}

const element = (name: string, text: string) => `<${name}>${escapeXml(text)}</${name}>`;
const link = (rel: string, href: string, type?: string) =>
  `<link rel="${rel}" href="${escapeXml(href)}"${type ? ` type="${type}"` : ''}/>`;

function person(tag: 'author', who: AtomPerson): string {
  return `<${tag}>${element('name', who.name)}${who.uri ? element('uri', who.uri) : ''}</${tag}>`;
}

function entry(e: AtomEntry): string {
  return [
    '<entry>',
    element('id', e.id),
    `<title type="text">${escapeXml(e.title)}</title>`,
    element('updated', e.updated),
    element('published', e.published),
    link('alternate', e.link, 'text/html'),
    person('author', e.author),
    e.category ? `<category term="${escapeXml(e.category)}"/>` : '',
    `<summary type="text">${escapeXml(e.summary)}</summary>`,
    '</entry>',
  ].join('');
}

export function renderAtom(feed: AtomFeed): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>\n',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    element('id', feed.id),
    `<title type="text">${escapeXml(feed.title)}</title>`,
    feed.subtitle ? `<subtitle type="text">${escapeXml(feed.subtitle)}</subtitle>` : '',
    element('updated', feed.updated),
    link('self', feed.selfLink, 'application/atom+xml'),
    link('alternate', feed.alternateLink, 'text/html'),
    feed.author ? person('author', feed.author) : '',
    '<generator>Inkwell</generator>',
    ...feed.entries.map(entry),
    '</feed>\n',
  ].join('');
}
