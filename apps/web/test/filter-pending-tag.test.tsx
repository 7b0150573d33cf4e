import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { BooksPage } from '../src/features/books/components/BooksPage.tsx';
import { bookFixture } from './fixtures.ts';
import { renderRouter } from './render.tsx';

/** The All Books page at `path`; fetch answers the books, no genres and no tag suggestions. */
function renderBooks(path = '/books') {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/genres') return Response.json({ genres: [] });
    if (url.pathname === '/api/tags') return Response.json({ tags: [] });
    return Response.json([bookFixture(1)]);
  });
  const router = createMemoryRouter([{ path: '/books', element: <BooksPage /> }], {
    initialEntries: [path],
  });
  renderRouter(router);
  return router;
}

const chips = (label: string) =>
  within(screen.getByRole('list', { name: label }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);

describe('a tag typed in the filters but not added with Enter', () => {
  it('is applied with the rest when Apply filters is clicked', async () => {
    const user = userEvent.setup();
    const router = renderBooks();
    await screen.findByRole('link', { name: 'Book 1' });
    await user.click(screen.getByText('Filters'));
    await user.type(screen.getByLabelText('With all these tags'), 'Found family{Enter}slow   burn');
    await user.type(screen.getByLabelText('Without these tags'), 'Angst');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() =>
      expect(router.state.location.search).toBe(
        '?tags=Found+family%2Cslow+burn&exclude_tags=Angst',
      ),
    );
    expect(chips('With all these tags')).toEqual(['Found family×', 'slow burn×']);
    expect(chips('Without these tags')).toEqual(['Angst×']);
  });

  it('is applied when the form is sent from the keyboard too', async () => {
    const user = userEvent.setup();
    const router = renderBooks();
    await screen.findByRole('link', { name: 'Book 1' });
    await user.click(screen.getByText('Filters'));
    await user.type(screen.getByLabelText('With all these tags'), 'slow burn');
    // Enter in another field sends the form without leaving the tag field by mouse.
    await user.type(screen.getByLabelText('At least this many words'), '500{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?tags=slow+burn&min_words=500'));
  });

  it('is refused with the field’s own reason, and nothing is applied', async () => {
    const user = userEvent.setup();
    const router = renderBooks('/books?tags=Slow+burn');
    await screen.findByRole('link', { name: 'Book 1' });
    const field = screen.getByRole('combobox', { name: 'With all these tags' });
    const long = 'x'.repeat(51);
    await user.type(field, long);
    await user.click(screen.getByRole('checkbox', { name: 'Completed' }));
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(screen.getByRole('alert').textContent).toMatch(/at most 50 characters/);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect((field as HTMLInputElement).value).toBe(long);
    expect(router.state.location.search).toBe('?tags=Slow+burn');
  });

  it('is left out when it is already in the list: nothing typed is lost', async () => {
    const user = userEvent.setup();
    const router = renderBooks('/books?tags=Slow+burn');
    await screen.findByRole('link', { name: 'Book 1' });
    const field = screen.getByRole('combobox', { name: 'With all these tags' });
    await user.type(field, 'SLOW BURN');
    await user.click(screen.getByRole('checkbox', { name: 'Completed' }));
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() =>
      expect(router.state.location.search).toBe('?tags=Slow+burn&status=completed'),
    );
  });
});
