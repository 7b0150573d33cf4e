import type { ChatServerFrame } from '@inkwell/contract';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { SafeHtml } from '../../../components/SafeHtml.tsx';
import { Status } from '../../../components/Status.tsx';
import { loadChunk } from '../../../lib/chunks.ts';
import { paths } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session.tsx';
import { openLiveSocket, type LiveSocket, type LiveSocketStatus } from '../../../lib/socket.ts';
import {
  CHAT_ACKS_QUERY,
  CHAT_MAX_MESSAGE_BYTES,
  CHAT_TOO_LARGE_DETAIL,
} from '@inkwell/contract/constants';
import { LOST_UNCONFIRMED, messageBytes, NOT_CONNECTED } from '../unsent.ts';

const ChatEditor = lazy(() => loadChunk(() => import('./ChatEditor.tsx')));

interface Line {
  key: number;
  /** A member's username; null for a note of the room itself (join, leave). */
  user: string | null;
  message: string;
}

const STATUS_TEXT: Record<LiveSocketStatus, string> = {
  connecting: 'Connecting...',
  open: 'Connected',
  // A lost connection is tried again a second later (another process takes it behind a load
  // balancer): a brief state, not an error.
  reconnecting: 'Reconnecting...',
  closed: 'Disconnected',
};

/** A chat room: the message list (history arrives on join) and the input. Signed-in users only. */
export function ChatRoom({ username }: { username: string }) {
  const { state } = useSession();
  const location = useLocation();
  const [lines, setLines] = useState<Line[]>([]);
  const [status, setStatus] = useState<LiveSocketStatus>('connecting');
  const [error, setError] = useState<string | null>(null);
  /** Sent messages the server refused, or whose fate the lost connection hid (HTML). */
  const [unsent, setUnsent] = useState<string | null>(null);
  const socket = useRef<LiveSocket | null>(null);
  const list = useRef<HTMLDivElement>(null);
  const token = state.token;
  /**
   * Messages sent on this connection whose answer has not come yet, oldest first: the server
   * answers each (the room is opened with acks), in order, with a sent frame or an error frame.
   * Not the user's own lines: those may come from their other tabs.
   */
  const awaiting = useRef<string[]>([]);

  useEffect(() => {
    if (!token) return;
    let counter = 0;
    setLines([]);
    const giveBack = (html: string | undefined) => {
      if (html !== undefined) setUnsent((prev) => (prev === null ? html : prev + html));
    };
    const live = openLiveSocket(
      `/chat/${encodeURIComponent(username)}`,
      {
        onStatus: (next) => {
          setStatus(next);
          // Gone before the server answered: whether they were stored is unknown, so the messages
          // come back to be sent again rather than be lost.
          if (next !== 'open' && awaiting.current.length > 0) {
            awaiting.current.splice(0).forEach(giveBack);
            setError(LOST_UNCONFIRMED);
          }
          // A reconnect replays the room's history: start the list afresh. "Not connected" is
          // no longer true.
          if (next === 'open') {
            setLines([]);
            setError((shown) => (shown === NOT_CONNECTED ? null : shown));
          }
        },
        // The room's author blocked this reader (WS_CLOSE.forbidden, 4403; a literal, as the
        // contract's values would bring zod into the bundle): say so, not a bare "Disconnected".
        onRefused: (code, reason) => {
          if (code === 4403) setError(reason || 'The author has blocked you.');
        },
        onMessage(data) {
          const frame = data as ChatServerFrame;
          if ('type' in frame) {
            if (frame.type === 'error') {
              setError(frame.detail);
              // The oldest message still waiting is the one refused: it comes back.
              giveBack(awaiting.current.shift());
            }
            // The oldest message still waiting reached the room.
            else if (frame.type === 'sent') awaiting.current.shift();
            // System notes come as their own frame type: a member named like the server is still
            // a member.
            else if (frame.type === 'system' && typeof frame.message === 'string')
              setLines((prev) => [...prev, { key: counter++, user: null, message: frame.message }]);
            return;
          }
          if (typeof frame.user === 'string' && typeof frame.message === 'string') {
            setLines((prev) => [
              ...prev,
              { key: counter++, user: frame.user, message: frame.message },
            ]);
          }
        },
      },
      // Each message is answered (sent or refused), so its fate is never read from the lines.
      { [CHAT_ACKS_QUERY]: '1' },
    );
    socket.current = live;
    return () => {
      // Another room (or session) is opening: messages this connection never answered come
      // back to the input rather than go with it.
      awaiting.current.splice(0).forEach(giveBack);
      live.close();
      socket.current = null;
    };
  }, [token, username]);

  const unsentTaken = useCallback(() => setUnsent(null), []);

  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lines]);

  if (state.status === 'loading') return <Status kind="loading">Loading...</Status>;
  if (state.status === 'out') {
    return (
      <Status>
        <Link to={paths.login(location.pathname)}>Log in</Link> to join the chat.
      </Status>
    );
  }

  const send = (html: string) => {
    // The server would refuse it: say so at once, and the input keeps it.
    if (messageBytes(html) > CHAT_MAX_MESSAGE_BYTES) {
      setError(CHAT_TOO_LARGE_DETAIL);
      return false;
    }
    setError(null);
    const sent = socket.current?.send(html) ?? false;
    if (sent) awaiting.current.push(html);
    else setError(NOT_CONNECTED);
    return sent;
  };

  return (
    <section className="chat" aria-labelledby="chat-title">
      <h2 id="chat-title" className="chat-title">
        Chat with {username}’s readers
        <span className={`chat-status is-${status}`}>{STATUS_TEXT[status]}</span>
      </h2>
      <div className="chat-log" ref={list} role="log" aria-label="Messages" tabIndex={0}>
        <ol className="chat-lines">
          {/* Only once in the room: before, its history has not come, and may not be empty. */}
          {lines.length === 0 && status === 'open' && (
            <li className="chat-empty">No messages yet. Say hello!</li>
          )}
          {lines.map((line) => (
            <li key={line.key} className={line.user === null ? 'chat-line is-server' : 'chat-line'}>
              {line.user !== null && (
                <Link className="chat-user" to={paths.author(line.user)}>
                  {line.user}
                </Link>
              )}
              <SafeHtml className="chat-message" html={line.message} />
            </li>
          ))}
        </ol>
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <Suspense fallback={<div className="chat-compose is-loading">Loading editor...</div>}>
        <ChatEditor
          onSend={send}
          disabled={status !== 'open'}
          unsent={unsent}
          onUnsentTaken={unsentTaken}
        />
      </Suspense>
    </section>
  );
}
