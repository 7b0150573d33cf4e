import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FormEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { SubmitButton } from './BusyButton.tsx';

/**
 * A submit button whose form's request runs is busy, not disabled: it keeps the keyboard's focus
 * (a disabled button drops it to the page), yet neither a click nor Enter sends the form again.
 */

function Form({ busy, onSubmit }: { busy: boolean; onSubmit(e: FormEvent): void }) {
  return (
    <form onSubmit={onSubmit}>
      <label htmlFor="name">Name</label>
      <input id="name" />
      <label htmlFor="about">About</label>
      <input id="about" />
      <SubmitButton className="button" busy={busy}>
        {busy ? 'Saving...' : 'Save'}
      </SubmitButton>
    </form>
  );
}

function renderForm(busy: boolean) {
  const onSubmit = vi.fn((e: FormEvent) => e.preventDefault());
  const view = render(<Form busy={busy} onSubmit={onSubmit} />);
  return {
    onSubmit,
    rerender: (next: boolean) => view.rerender(<Form busy={next} onSubmit={onSubmit} />),
    button: () => screen.getByRole('button'),
  };
}

describe('SubmitButton', () => {
  it('is aria-disabled while busy, and not disabled: it keeps the focus', () => {
    const { button, rerender } = renderForm(false);
    expect(button().getAttribute('type')).toBe('submit');
    expect(button().getAttribute('aria-disabled')).toBe('false');
    button().focus();
    rerender(true);
    expect(button().textContent).toBe('Saving...');
    expect(button().getAttribute('aria-disabled')).toBe('true');
    expect(button()).toHaveProperty('disabled', false);
    expect(document.activeElement).toBe(button());
  });

  it('does not submit on a click while busy', async () => {
    const { button, onSubmit } = renderForm(true);
    await userEvent.click(button());
    expect(onSubmit).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(button());
  });

  it('does not submit on Enter in a text field while busy', async () => {
    const { button, onSubmit } = renderForm(true);
    // Not disabled (a disabled default button would stop Enter too): the click is cancelled.
    expect(button()).toHaveProperty('disabled', false);
    await userEvent.type(screen.getByLabelText('Name'), 'ann{enter}');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits on a click and on Enter when not busy', async () => {
    const { button, onSubmit } = renderForm(false);
    await userEvent.click(button());
    expect(onSubmit).toHaveBeenCalledTimes(1);
    await userEvent.type(screen.getByLabelText('Name'), 'ann{enter}');
    expect(onSubmit).toHaveBeenCalledTimes(2);
  });

  it('stays disabled for what is not busy (nothing to send yet)', async () => {
    const onSubmit = vi.fn((e: FormEvent) => e.preventDefault());
    render(
      <form onSubmit={onSubmit}>
        <input aria-label="Name" />
        <input aria-label="About" />
        <SubmitButton disabled busy={false}>
          Save
        </SubmitButton>
      </form>,
    );
    expect(screen.getByRole('button')).toHaveProperty('disabled', true);
    await userEvent.type(screen.getByLabelText('Name'), 'ann{enter}');
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
