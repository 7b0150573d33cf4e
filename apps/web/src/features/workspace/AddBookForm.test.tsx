import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { selectableGenres } from './api/workspace.ts';
import { AddBookForm } from './components/WorkspacePage.tsx';

function renderForm(titles: string[] | undefined) {
  const posted: unknown[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (_url, init) => {
    posted.push(JSON.parse(String(init?.body)));
    return new Response(
      JSON.stringify({ id: posted.length, title: (posted.at(-1) as { title: string }).title }),
      {
        status: 201,
        headers: { 'content-type': 'application/json' },
      },
    );
  });
  const client = new QueryClient();
  render(
    <QueryClientProvider client={client}>
      <AddBookForm titles={titles} />
    </QueryClientProvider>,
  );
  return {
    posted,
    input: screen.getByLabelText('New book title'),
    add: screen.getByRole('button', { name: 'Add Book' }),
  };
}

describe('the add-book form (SPEC section 5)', () => {
  it('clears the form and sends nothing for a title the author already has, in any case', async () => {
    const { posted, input, add } = renderForm(['Dune', 'Emma']);
    await userEvent.type(input, '  dUNE ');
    await userEvent.click(add);
    expect(input).toHaveProperty('value', '');
    expect(screen.getByRole('status').textContent).toBe('You already have a book with this title.');
    expect(posted).toEqual([]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("sends an empty title as the first free 'Untitled Book (n)'", async () => {
    const { posted, add } = renderForm(['Untitled Book', 'untitled book (1)']);
    await userEvent.click(add);
    await waitFor(() => expect(posted).toEqual([{ title: 'Untitled Book (2)' }]));
    expect(vi.mocked(fetch).mock.calls[0]![0]).toBe('/api/books');
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('Added “Untitled Book (2)”.'),
    );
  });

  it('sends a new title trimmed, and clears the form', async () => {
    const { posted, input, add } = renderForm([]);
    await userEvent.type(input, '  Persuasion  ');
    await userEvent.click(add);
    await waitFor(() => expect(posted).toEqual([{ title: 'Persuasion' }]));
    expect(input).toHaveProperty('value', '');
  });

  it('puts the typed title back when the book could not be created', async () => {
    const { input, add } = renderForm(['Dune']);
    vi.mocked(fetch).mockResolvedValue(
      Response.json(
        { detail: 'You already have a book with this title', code: 'conflict' },
        { status: 409 },
      ),
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await userEvent.type(input, 'Emma');
    await userEvent.click(add);
    await waitFor(() => expect(input).toHaveProperty('value', 'Emma'));
  });

  it('waits for the list of books before it can tell a duplicate', () => {
    const { add } = renderForm(undefined);
    expect(add).toHaveProperty('disabled', true);
  });
});

describe('genre choices', () => {
  it('offers only the genres not attached yet', () => {
    const all = [
      { id: 1, name: 'Fiction' },
      { id: 4, name: 'Fantasy' },
      { id: 11, name: 'Horror' },
    ];
    expect(selectableGenres(all, [{ id: 4, name: 'Fantasy' }])).toEqual([all[0], all[2]]);
    expect(selectableGenres(all, [])).toEqual(all);
  });
});
