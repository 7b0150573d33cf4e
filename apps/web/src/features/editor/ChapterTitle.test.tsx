import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ChapterTitle } from './components/ChapterTitle.tsx';

/** A rename the test answers when it likes. */
function deferredRename() {
  let answer: (ok: boolean) => void = () => {};
  const onRename = vi.fn(
    () =>
      new Promise<boolean>((resolve) => {
        answer = resolve;
      }),
  );
  return { onRename, answer: (ok: boolean) => act(async () => answer(ok)) };
}

const pencil = () => screen.getByRole('button', { name: 'Edit title' });
const heading = () => screen.getByRole('heading', { level: 1 });

/** Tabs to the pencil and opens the field with Enter, as a keyboard user does. */
async function openField(user: ReturnType<typeof userEvent.setup>) {
  await user.tab();
  expect(document.activeElement).toBe(pencil());
  await user.keyboard('{Enter}');
  const field = screen.getByRole('textbox', { name: 'Chapter title' });
  expect(document.activeElement).toBe(field);
  return field;
}

describe('ChapterTitle keeps keyboard focus (SPEC sections 2 and 4)', () => {
  it('gives focus back to the pencil after a rename by Enter, while it is saved and after', async () => {
    const user = userEvent.setup();
    const { onRename, answer } = deferredRename();
    const { rerender } = render(<ChapterTitle title="Chapter 1" onRename={onRename} />);
    const field = await openField(user);
    await user.clear(field);
    await user.type(field, 'The Storm{Enter}');

    expect(onRename).toHaveBeenCalledWith('The Storm');
    expect(heading().textContent).toBe('The Storm');
    expect(document.activeElement).toBe(pencil());
    // While the rename is saved the pencil says it is unavailable and does nothing.
    expect(pencil().getAttribute('aria-disabled')).toBe('true');
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('textbox', { name: 'Chapter title' })).toBeNull();

    // The editor takes up the saved title before it answers.
    rerender(<ChapterTitle title="The Storm" onRename={onRename} />);
    await answer(true);
    expect(document.activeElement).toBe(pencil());
    expect(pencil().hasAttribute('aria-disabled')).toBe(false);
    expect(heading().textContent).toBe('The Storm');
  });

  it('gives focus back to the pencil after a refused rename by the save icon, and shows the old title', async () => {
    const user = userEvent.setup();
    const { onRename, answer } = deferredRename();
    render(<ChapterTitle title="Chapter 1" onRename={onRename} />);
    const field = await openField(user);
    await user.clear(field);
    await user.type(field, 'The Storm');
    await user.click(screen.getByRole('button', { name: 'Save title' }));

    expect(onRename).toHaveBeenCalledWith('The Storm');
    expect(document.activeElement).toBe(pencil());
    await answer(false);
    expect(heading().textContent).toBe('Chapter 1');
    expect(document.activeElement).toBe(pencil());
    // The pencil works again.
    await user.keyboard('{Enter}');
    expect(screen.getByRole('textbox', { name: 'Chapter title' })).toHaveProperty(
      'value',
      'Chapter 1',
    );
  });

  it('gives focus back to the pencil after Escape, and keeps the title', async () => {
    const user = userEvent.setup();
    const { onRename } = deferredRename();
    render(<ChapterTitle title="Chapter 1" onRename={onRename} />);
    const field = await openField(user);
    await user.type(field, ' and more{Escape}');

    expect(onRename).not.toHaveBeenCalled();
    expect(heading().textContent).toBe('Chapter 1');
    expect(document.activeElement).toBe(pencil());
  });

  it('gives focus back to the pencil after Enter on an unchanged title', async () => {
    const user = userEvent.setup();
    const { onRename } = deferredRename();
    render(<ChapterTitle title="Chapter 1" onRename={onRename} />);
    await openField(user);
    await user.keyboard('{Enter}');

    expect(onRename).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(pencil());
  });
});
