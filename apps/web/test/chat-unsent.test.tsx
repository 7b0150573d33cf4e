import { CHAT_LIMITS } from '@inkwell/contract';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Editor } from '@tiptap/core';
import { createMemoryRouter, useParams } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChatRoom } from '../src/features/chat/components/ChatRoom.tsx';
import { CHAT_TOO_LARGE_DETAIL } from '@inkwell/contract/constants';
import type { SessionState } from '../src/lib/session.tsx';
import { FakeBrowserSocket } from './fake-browser-socket.ts';
import { accountFixture, apiAnswer, stubApi } from './fixtures.ts';
import { renderRouter } from './render.tsx';

/**
 * A chat message the server refuses (too large, too fast, not stored) is not lost: the input
 * clears when it is sent, and the message comes back when the server's error frame (or the loss
 * of the connection) tells it was not posted.
 */

afterEach(() => vi.unstubAllGlobals());

// ProseMirror measures the selection to scroll it into view; jsdom's ranges have no layout.
const measured = 'getClientRects' in Range.prototype;
beforeAll(() => {
  if (measured) return;
  Range.prototype.getClientRects = () => [] as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect = () => new DOMRect();
});
afterAll(() => {
  if (measured) return;
  delete (Range.prototype as Partial<Range>).getClientRects;
  delete (Range.prototype as Partial<Range>).getBoundingClientRect;
});

// @tiptap/react takes its store hooks from use-sync-external-store, a CommonJS package that
// require()s the real react, not the Preact these tests render with: give it Preact's hook.
vi.mock('use-sync-external-store/shim/index.js', async () => {
  const { useSyncExternalStore } = await import('preact/compat');
  return { useSyncExternalStore };
});
vi.mock('use-sync-external-store/shim/with-selector.js', async () => {
  const { useRef, useSyncExternalStore } = await import('preact/compat');
  return {
    useSyncExternalStoreWithSelector<S, T>(
      subscribe: (onChange: () => void) => () => void,
      getSnapshot: () => S,
      _getServerSnapshot: unknown,
      selector: (snapshot: S) => T,
      isEqual?: (a: T, b: T) => boolean,
    ): T {
      const last = useRef<{ snapshot: S; selection: T } | null>(null);
      const select = () => {
        const snapshot = getSnapshot();
        const previous = last.current;
        if (previous && previous.snapshot === snapshot) return previous.selection;
        let selection = selector(snapshot);
        if (previous && isEqual?.(previous.selection, selection)) selection = previous.selection;
        last.current = { snapshot, selection };
        return selection;
      };
      return useSyncExternalStore(subscribe, select);
    },
  };
});

const SIGNED_IN: SessionState = { status: 'in', token: 'token', account: accountFixture(7, 'ann') };

/** The chat room of `/:name` as the app's route gives it. */
function RoomOf() {
  return <ChatRoom username={useParams().name!} />;
}

/**
 * The chat room of bob for ann, its socket asked for but not open yet: answers the socket, and
 * the router (to go to another room).
 */
async function renderRoom() {
  stubApi((url) =>
    url.pathname === '/api/socket-tickets'
      ? apiAnswer({ ticket: 't', expires_in: 60 }, 201)
      : apiAnswer({}),
  );
  vi.stubGlobal('WebSocket', FakeBrowserSocket);
  FakeBrowserSocket.opened = [];
  const router = createMemoryRouter([{ path: '/:name', element: <RoomOf /> }], {
    initialEntries: ['/bob'],
  });
  renderRouter(router, { session: SIGNED_IN });
  await waitFor(() => expect(FakeBrowserSocket.opened).toHaveLength(1));
  return { socket: FakeBrowserSocket.opened[0]!, router };
}

/** The chat room of bob for ann, its socket open; answers the socket and what it was sent. */
async function openRoom() {
  const { socket, router } = await renderRoom();
  const sent: string[] = [];
  Object.assign(socket, { send: (data: string) => void sent.push(data) });
  socket.readyState = FakeBrowserSocket.OPEN;
  act(() => socket.onopen?.());
  await screen.findByText('Connected');
  const input = await screen.findByRole('textbox', { name: 'Message' });
  const server = (frame: unknown) => act(() => socket.onmessage?.({ data: JSON.stringify(frame) }));
  return { socket, sent, input, server, router };
}

/** The TipTap editor behind the input (jsdom cannot type into a contenteditable reliably). */
const editorOf = (input: HTMLElement) => (input as HTMLElement & { editor: Editor }).editor;

async function write(input: HTMLElement, html: string) {
  act(() => void editorOf(input).commands.setContent(html));
}

const sendButton = () => screen.getByRole('button', { name: 'Send' });

describe('a chat message the server refuses', () => {
  it('comes back into the empty input with the error', async () => {
    const { sent, input, server } = await openRoom();
    await write(input, '<p>Hello there</p>');
    await userEvent.click(sendButton());
    expect(sent).toEqual(['<p>Hello there</p>']);
    expect(editorOf(input).getText()).toBe('');
    server({ type: 'error', detail: 'Too many messages: slow down' });
    expect(screen.getByRole('alert').textContent).toBe('Too many messages: slow down');
    await waitFor(() => expect(editorOf(input).getHTML()).toBe('<p>Hello there</p>'));
  });

  it('does not come back once the server said it was sent; a later refusal is of a later message', async () => {
    const { socket, input, server } = await openRoom();
    expect(new URL(socket.url).searchParams.get('acks')).toBe('1');
    await write(input, '<p>First</p>');
    await userEvent.click(sendButton());
    await write(input, '<p>Second</p>');
    await userEvent.click(sendButton());
    server({ user: 'ann', message: '<p>First</p>' });
    server({ type: 'sent' });
    server({ type: 'error', detail: 'The chat is briefly unavailable; your message was not sent' });
    await waitFor(() => expect(editorOf(input).getHTML()).toBe('<p>Second</p>'));
    // Nothing else waits: another error frame brings nothing back.
    await write(input, '');
    server({ type: 'error', detail: 'Too many messages: slow down' });
    expect(editorOf(input).getText()).toBe('');
  });

  it("comes back though a line of its user's from another tab arrived before the refusal", async () => {
    const { input, server } = await openRoom();
    await write(input, '<p>From this tab</p>');
    await userEvent.click(sendButton());
    server({ user: 'ann', message: '<p>From another tab</p>' });
    server({ type: 'error', detail: 'Too many messages: slow down' });
    await waitFor(() => expect(editorOf(input).getHTML()).toBe('<p>From this tab</p>'));
  });

  it('does not overwrite what was typed since: it is kept, and put back on request', async () => {
    const { input, server } = await openRoom();
    await write(input, '<p>Refused</p>');
    await userEvent.click(sendButton());
    await write(input, '<p>Typed since</p>');
    server({ type: 'error', detail: 'Too many messages: slow down' });
    expect(editorOf(input).getHTML()).toBe('<p>Typed since</p>');
    expect(screen.getByText(/Your unsent message is kept/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Put it back' }));
    expect(editorOf(input).getText()).toContain('Typed since');
    expect(editorOf(input).getText()).toContain('Refused');
    expect(screen.queryByText(/Your unsent message is kept/)).toBeNull();
  });

  it('comes back when the connection is lost before the server answered', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { socket, input } = await openRoom();
    await write(input, '<p>Into the void</p>');
    await userEvent.click(sendButton());
    expect(editorOf(input).getText()).toBe('');
    act(() => socket.onclose?.({ code: 1006 }));
    await waitFor(() => expect(editorOf(input).getHTML()).toBe('<p>Into the void</p>'));
    expect(screen.getByRole('alert').textContent).toMatch(/connection was lost/);
  });

  it('comes back when another room opens before the server answered, and the old socket is not heard', async () => {
    const { socket, input, router } = await openRoom();
    await write(input, '<p>Said in the old room</p>');
    await userEvent.click(sendButton());
    await act(() => router.navigate('/carl'));
    await waitFor(() => expect(FakeBrowserSocket.opened).toHaveLength(2));
    await waitFor(() => expect(editorOf(input).getHTML()).toBe('<p>Said in the old room</p>'));
    // The old socket's late close says nothing about the new room.
    act(() => socket.onclose?.({ code: 1000 }));
    expect(screen.queryByText(/Disconnected/)).toBeNull();
    expect(new URL(FakeBrowserSocket.opened[1]!.url).pathname).toBe('/chat/carl');
  });

  it('is refused before sending when larger than the server takes, and stays in the input', async () => {
    const { sent, input } = await openRoom();
    const big = `<p>${'é'.repeat(CHAT_LIMITS.maxMessageBytes / 2)}</p>`;
    await write(input, big);
    await userEvent.click(sendButton());
    expect(sent).toEqual([]);
    expect(screen.getByRole('alert').textContent).toBe(CHAT_TOO_LARGE_DETAIL);
    expect(CHAT_TOO_LARGE_DETAIL).toBe('Message too large: at most 8 KB');
    expect(editorOf(input).getHTML()).toBe(big);
  });
});

describe('the chat room’s empty line', () => {
  it('says there are no messages only once in the room, not while connecting', async () => {
    const { socket } = await renderRoom();
    expect(screen.queryByText('No messages yet. Say hello!')).toBeNull();
    socket.readyState = FakeBrowserSocket.OPEN;
    act(() => socket.onopen?.());
    expect(await screen.findByText('No messages yet. Say hello!')).toBeTruthy();
  });
});
