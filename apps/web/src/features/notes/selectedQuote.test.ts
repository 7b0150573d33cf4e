import { describe, expect, it } from 'vitest';
import { selectedQuote } from './components/ChapterNotes.tsx';

describe('selectedQuote', () => {
  const setup = () => {
    const content = document.createElement('div');
    content.innerHTML = '<p>One.</p><p>Two <em>words</em> here.</p>';
    const outside = document.createElement('p');
    outside.textContent = 'Elsewhere';
    document.body.replaceChildren(content, outside);
    return { content, outside };
  };
  const select = (node: Node, start: number, end: number) => {
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, end);
    const selection = document.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    return selection;
  };

  it('answers the trimmed text and the paragraph it starts in', () => {
    const { content } = setup();
    const text = content.querySelector('em')!.firstChild!;
    expect(selectedQuote(content, select(text, 0, 5))).toEqual({ paragraph: 1, text: 'words' });
  });

  it('answers null for no selection, an empty one, or one outside the chapter', () => {
    const { content, outside } = setup();
    expect(selectedQuote(content, null)).toBeNull();
    expect(selectedQuote(content, select(content.firstChild!.firstChild!, 2, 2))).toBeNull();
    expect(selectedQuote(content, select(outside.firstChild!, 0, 4))).toBeNull();
  });
});
