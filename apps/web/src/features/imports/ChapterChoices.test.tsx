import type { ImportPlan, ImportPreview } from '@inkwell/contract';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { planOf, problemsOf, totalsOf, type ChapterChoice } from './choices.ts';
import { ChapterChoices } from './components/ChapterChoices.tsx';

const chapter = (
  index: number,
  title: string,
  kind: 'front' | 'body' | 'back' = 'body',
  words = 1000,
) => ({ index, title, kind, words, included: kind === 'body', opening: `${title} begins.` });

const preview: ImportPreview = {
  filename: 'tale.epub',
  format: 'epub',
  keep_front_matter: false,
  title: 'The Tale',
  source_title: 'The Tale',
  source_author: 'Someone',
  chapters: [
    chapter(0, 'Title Page', 'front', 8),
    chapter(1, 'One'),
    chapter(2, 'Interlude', 'body', 3),
    chapter(3, 'Two'),
    chapter(4, 'Colophon', 'back', 20),
  ],
  warnings: [],
};

describe('the import choices (issue 23 §1)', () => {
  it('describe the differences from the proposal as a plan', () => {
    const choices: ChapterChoice[] = [
      { include: true, merge: false, title: 'Title Page' },
      { include: false, merge: false, title: 'One' },
      { include: true, merge: true, title: 'Interlude' },
      { include: true, merge: false, title: '  Two, Renamed ' },
      { include: false, merge: false, title: 'Colophon' },
    ];
    expect(planOf(preview, choices)).toEqual({
      skip: [1],
      keep: [0],
      merge: [2],
      rename: [{ index: 3, title: 'Two, Renamed' }],
      chapter_count: 5,
    });
    expect(totalsOf(preview, choices)).toEqual({ chapters: 2, words: 1011 });
  });

  it('name what stops the book from being made', () => {
    const none = preview.chapters.map((c) => ({ include: false, merge: false, title: c.title }));
    expect(problemsOf(none).list).toBe('Tick at least one chapter to import.');
    const lastMerged = preview.chapters.map((c, i) => ({
      include: c.kind === 'body',
      merge: i === 3,
      title: i === 1 ? ' ' : c.title,
    }));
    const problems = problemsOf(lastMerged);
    expect([...problems.titles]).toEqual([[1, 'A chapter needs a title.']]);
    expect([...problems.merges]).toEqual([
      [3, 'No imported chapter comes after it to merge into.'],
    ]);
  });
});

describe('<ChapterChoices>', () => {
  it('lists the chapters with words and kind, and creates the book with what the author chose', async () => {
    const onCreate = vi.fn<(plan: ImportPlan) => void>();
    render(<ChapterChoices preview={preview} pending={false} error={null} onCreate={onCreate} />);
    expect(document.activeElement).toBe(
      screen.getByRole('heading', { name: 'Chapters of “The Tale”' }),
    );
    expect(screen.getByRole('checkbox', { name: 'Import chapter 1' })).toHaveProperty(
      'checked',
      false,
    );
    expect(screen.getByText('Front matter')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(
      'The book will have 3 chapters, 2,003 words.',
    );

    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Import chapter 2' }));
    await user.click(
      screen.getByRole('checkbox', { name: 'Merge chapter 3 into the next chapter' }),
    );
    const title = screen.getByRole('textbox', { name: 'Title of chapter 4' });
    await user.clear(title);
    await user.type(title, 'Two, Renamed');
    await user.click(screen.getByRole('button', { name: 'Create book' }));
    expect(onCreate).toHaveBeenCalledWith({
      skip: [1],
      keep: [],
      merge: [2],
      rename: [{ index: 3, title: 'Two, Renamed' }],
      chapter_count: 5,
    });
  });

  it('shows what to fix and takes the author there instead of creating', async () => {
    const onCreate = vi.fn();
    render(<ChapterChoices preview={preview} pending={false} error={null} onCreate={onCreate} />);
    const user = userEvent.setup();
    const title = screen.getByRole('textbox', { name: 'Title of chapter 2' });
    await user.clear(title);
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('A chapter needs a title.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create book' }));
    expect(onCreate).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(title);
    expect(screen.getByRole('alert').textContent).toBe('Fix the chapters marked above first.');

    // Unticking everything is said at once.
    for (const n of [2, 3, 4])
      await user.click(screen.getByRole('checkbox', { name: `Import chapter ${n}` }));
    expect(screen.getByRole('alert').textContent).toBe('Tick at least one chapter to import.');
  });
});
