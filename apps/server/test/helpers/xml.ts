import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { expect } from 'vitest';

/**
 * Parses XML strictly: a document that is not well-formed fails the test with the parser's
 * reason. Attributes keep their names under '@_'; repeated elements are always arrays.
 */
export function parseXml(text: string, label = 'document') {
  const valid = XMLValidator.validate(text);
  expect(valid === true ? true : `${label}: ${JSON.stringify(valid)}`).toBe(true);
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    isArray: (_name, _path, _isLeaf, isAttribute) => !isAttribute,
    textNodeName: '#text',
    trimValues: true,
    processEntities: true,
  }).parse(text) as Record<string, unknown>;
}

/** The text of an element parsed by parseXml (an array of one, holding a string or {#text}). */
export function textOf(node: unknown): string {
  const first = Array.isArray(node) ? node[0] : node;
  if (typeof first === 'string' || typeof first === 'number') return String(first);
  if (first && typeof first === 'object' && '#text' in first)
    return String((first as { '#text': unknown })['#text']);
  return '';
}

/** A parsed element: child elements by name (always arrays), attributes under '@_name'. */
export type XmlNode = Record<string, unknown>;

export const children = (node: unknown, name: string): XmlNode[] =>
  ((node as XmlNode | undefined)?.[name] as XmlNode[] | undefined) ?? [];
export const child = (node: unknown, name: string): XmlNode => {
  const found = children(node, name)[0];
  if (!found) throw new Error(`no <${name}> element`);
  return found;
};
export const attribute = (node: unknown, name: string): string | undefined =>
  (node as XmlNode | undefined)?.[`@_${name}`] as string | undefined;
