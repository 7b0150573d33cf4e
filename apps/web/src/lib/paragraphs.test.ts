import { describe, expect, it, vi } from 'vitest';
import { debounce } from './debounce.ts';
import { blockIndexOf, placeAtTop, placeOfRange } from './paragraphs.ts';

const content = () => {
  const div = document.createElement('div');
  div.innerHTML = '<p>First one.</p>\n<h2>A <em>heading</em></h2>\n<p>Third block here.</p>';
  document.body.append(div);
  return div;
};

describe('blockIndexOf', () => {
  it('counts top-level elements only, not the whitespace between them', () => {
    const div = content();
    const em = div.querySelector('em')!.firstChild!;
    expect(blockIndexOf(div, em)).toBe(1);
    expect(blockIndexOf(div, div.children[2]!.firstChild)).toBe(2);
    expect(blockIndexOf(div, div.childNodes[1]!)).toBe(1);
    expect(blockIndexOf(div, document.body)).toBe(-1);
  });
});

describe('placeOfRange', () => {
  it('answers the block and the character offset of the selection start', () => {
    const div = content();
    const range = document.createRange();
    const text = div.querySelector('em')!.firstChild!;
    range.setStart(text, 3);
    range.setEnd(text, 7);
    expect(placeOfRange(div, range)).toEqual({ paragraph: 1, offset: 5 });
  });

  it('answers null for a selection outside the content', () => {
    const div = content();
    const range = document.createRange();
    range.selectNodeContents(document.body);
    expect(placeOfRange(div, range)).toBeNull();
  });
});

describe('placeAtTop', () => {
  it('answers the first block whose bottom is below the line, with the part scrolled past', () => {
    const div = content();
    const rects = [
      { top: -200, bottom: -100, height: 100 },
      { top: -100, bottom: 100, height: 200 },
      { top: 100, bottom: 300, height: 200 },
    ];
    [...div.children].forEach((el, i) => {
      vi.spyOn(el, 'getBoundingClientRect').mockReturnValue(rects[i] as DOMRect);
    });
    // "A heading" is 9 characters; half of the block is above the line.
    expect(placeAtTop(div, 0)).toEqual({ paragraph: 1, offset: 4 });
    expect(placeAtTop(div, 150)).toEqual({ paragraph: 2, offset: 4 });
    expect(placeAtTop(div, 1000)).toEqual({ paragraph: 2, offset: 0 });
  });
});

describe('debounce', () => {
  it('runs once with the last arguments after the quiet period, and flush runs it now', () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const d = debounce(fn, 2000);
    d.schedule(1);
    vi.advanceTimersByTime(1500);
    d.schedule(2);
    vi.advanceTimersByTime(1500);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(600);
    expect(fn).toHaveBeenCalledExactlyOnceWith(2);
    d.schedule(3);
    d.flush();
    expect(fn).toHaveBeenLastCalledWith(3);
    d.flush();
    expect(fn).toHaveBeenCalledTimes(2);
    d.schedule(4);
    d.cancel();
    vi.advanceTimersByTime(5000);
    expect(fn).toHaveBeenCalledTimes(2);
    vi.useRealTimers();
  });
});
