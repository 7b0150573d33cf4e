import { Parser } from 'htmlparser2';

/**
 * The number of top-level elements of sanitized chapter HTML: the blocks a paragraph index
 * (notes, reading positions, comments) counts, as the web app's `lib/paragraphs.ts` counts them
 * (element children of the content, whitespace between them ignored).
 */
export function countTopLevelBlocks(html: string): number {
  let depth = 0;
  let blocks = 0;
  const parser = new Parser(
    {
      onopentag() {
        if (depth === 0) blocks++;
        depth++;
      },
      onclosetag() {
        depth--;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return blocks;
}
