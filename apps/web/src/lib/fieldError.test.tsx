import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef } from 'react';
import { describe, expect, it } from 'vitest';
import { description, field } from '../../test/fields.ts';
import { useFieldError } from './fieldError.tsx';

/**
 * A screen reader hears an error once. When the focus moves onto a field the message describes, it
 * hears the message there (the field, invalid, and its description): no alert says it again. An
 * error the focus does not move onto is said as an alert.
 */

const MESSAGE = 'Something is wrong here.';

/**
 * A form whose submit shows MESSAGE about `fields` (null: the form as a whole). Its fields: Title
 * and Summary, named; Colour, tied to the error as `colour` but with no `name`, so that no focus
 * can go to it.
 */
function Form({ fields }: { fields: string[] | null }) {
  const form = useRef<HTMLFormElement>(null);
  const error = useFieldError('test', form);
  return (
    <form
      ref={form}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        error.show(MESSAGE, fields);
      }}
    >
      <label htmlFor="test-title">Title</label>
      <input id="test-title" name="title" {...error.fieldProps('title')} />
      {error.messageAt('title')}
      <label htmlFor="test-summary">Summary</label>
      <input id="test-summary" name="summary" {...error.fieldProps('summary')} />
      {error.messageAt('summary')}
      <label htmlFor="test-colour">Colour</label>
      <input id="test-colour" {...error.fieldProps('colour')} />
      {error.messageAt('colour')}
      {error.formMessage()}
      <button>Send</button>
    </form>
  );
}

/** The form, sent with its button (which has the focus then, as after a click). */
async function send(fields: string[] | null) {
  render(<Form fields={fields} />);
  await userEvent.click(screen.getByRole('button', { name: 'Send' }));
}

const alerts = () => screen.queryAllByRole('alert').map((alert) => alert.textContent);

describe('useFieldError: an error said once', () => {
  it('says an error about one field through the focus moved to it, not as an alert', async () => {
    await send(['summary']);
    await waitFor(() => expect(document.activeElement).toBe(field('Summary')));
    expect(field('Summary').getAttribute('aria-invalid')).toBe('true');
    expect(description(field('Summary'))).toBe(MESSAGE);
    expect(alerts()).not.toContain(MESSAGE);
    // Shown under the field all the same.
    expect(screen.getByText(MESSAGE).className).toBe('field-error');
    expect(field('Title').getAttribute('aria-invalid')).toBeNull();
  });

  it('says an error about several fields through the focus moved to the first, not as an alert', async () => {
    await send(['summary', 'title']);
    await waitFor(() => expect(document.activeElement).toBe(field('Title')));
    for (const label of ['Title', 'Summary']) {
      expect(field(label).getAttribute('aria-invalid')).toBe('true');
      expect(description(field(label))).toBe(MESSAGE);
    }
    expect(alerts()).not.toContain(MESSAGE);
    expect(screen.getByText(MESSAGE).className).toBe('form-error');
  });

  it('says an error of the form as a whole as an alert, and leaves the focus where it is', async () => {
    await send(null);
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', MESSAGE);
    expect(screen.getByRole('alert').className).toBe('form-error');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Send' }));
    for (const label of ['Title', 'Summary', 'Colour'])
      expect(field(label).getAttribute('aria-invalid')).toBeNull();
  });

  it('says an error about a field the focus cannot go to as an alert, at that field', async () => {
    await send(['colour']);
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', MESSAGE);
    expect(screen.getByRole('alert').className).toBe('field-error');
    expect(description(field('Colour'))).toBe(MESSAGE);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Send' }));
  });

  it('says an error about the field that already has the focus as an alert: no focus moves', async () => {
    render(<Form fields={['title']} />);
    // Enter in the field sends the form: the focus stays in it, and is not moved onto it.
    await userEvent.type(field('Title'), 'x{Enter}');
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', MESSAGE);
    expect(document.activeElement).toBe(field('Title'));
    expect(description(field('Title'))).toBe(MESSAGE);
  });
});
