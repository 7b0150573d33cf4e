import { diffWords } from 'diff';

/** A stretch of a word diff: in both texts, only in the version (added), or only now (removed). */
export interface DiffPart {
  text: string;
  change: 'same' | 'added' | 'removed';
}

/**
 * The plain text of chapter HTML, one line per block, as a reader sees it: what History
 * compares (markup changes alone are not what an author looks for).
 */
export function plainText(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const blocks = [...doc.body.children];
  return blocks.length === 0
    ? (doc.body.textContent ?? '')
    : blocks.map((block) => block.textContent ?? '').join('\n');
}

/**
 * What restoring `version` would do to `current`, word by word: the words it adds and the
 * words it removes.
 */
export function wordDiff(current: string, version: string): DiffPart[] {
  return diffWords(current, version).map((part) => ({
    text: part.value,
    change: part.added ? 'added' : part.removed ? 'removed' : 'same',
  }));
}
