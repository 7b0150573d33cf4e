import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/Avatar.tsx';
import { BusyButton, SubmitButton } from '../../../components/BusyButton.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { isApiError } from '../../../lib/api.ts';
import { paths } from '../../../lib/paths.ts';
import { displayName } from '../../../lib/titles.ts';
import { useChangeUserList, userListQuery, type UserListKind } from '../api/settings.ts';

const TEXTS: Record<
  UserListKind,
  {
    title: string;
    about: string;
    add: string;
    remove: string;
    empty: string;
    done: string;
    undone: string;
  }
> = {
  blocks: {
    title: 'Blocked users',
    about:
      'A user you block cannot follow you or your books, comment or like there, or join your chat room; their comments on your books are hidden from everyone.',
    add: 'Block',
    remove: 'Unblock',
    empty: 'You have not blocked anyone.',
    done: 'Blocked',
    undone: 'Unblocked',
  },
  mutes: {
    title: 'Muted users',
    about: 'You no longer see the comments and chat lines of a user you mute. Only you.',
    add: 'Mute',
    remove: 'Unmute',
    empty: 'You have not muted anyone.',
    done: 'Muted',
    undone: 'Unmuted',
  },
};

/** What went wrong, in words a person can act on. */
function errorText(error: unknown, fallback: string): string {
  if (isApiError(error) && error.status > 0 && error.status < 500) return error.detail;
  if (isApiError(error, 0)) return 'Could not reach the server. Try again.';
  return fallback;
}

/** One list (blocks or mutes): who is on it, with a remove button each, and a form to add. */
export function UserListCard({ kind }: { kind: UserListKind }) {
  const texts = TEXTS[kind];
  const titleId = useId();
  const inputId = useId();
  const list = useQuery(userListQuery(kind));
  const [username, setUsername] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const change = useChangeUserList(kind, {
    onSuccess: (_list, { username: name, remove }) => {
      setError(null);
      setNotice(`${remove ? texts.undone : texts.done} ${name}.`);
      if (!remove) setUsername('');
      // The row (and the button in it) is gone: the keyboard goes back to the list's heading.
      else heading.current?.focus();
    },
    onError: (err) => {
      setNotice(null);
      setError(errorText(err, `Could not change your ${texts.title.toLowerCase()}.`));
    },
  });

  const add = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = username.trim();
    if (name === '') {
      setError('Enter a username.');
      return;
    }
    change.mutate({ username: name });
  };

  return (
    <section className="settings-card user-list" aria-labelledby={titleId}>
      <h2 id={titleId} ref={heading} tabIndex={-1}>
        {texts.title}
      </h2>
      <p className="field-help">{texts.about}</p>
      {list.isPending && <Loading />}
      {list.isError && (
        <Status kind="error">Could not load your {texts.title.toLowerCase()}.</Status>
      )}
      {list.data?.length === 0 && <Status kind="empty">{texts.empty}</Status>}
      {list.data && list.data.length > 0 && (
        <ul className="user-list-items">
          {list.data.map((user) => {
            const name = displayName(user);
            return (
              <li key={user.id}>
                <Avatar src={user.avatar} name={name} size={32} decorative />
                <Link to={paths.author(user.username)}>{name}</Link>
                <BusyButton
                  className="button button-small button-secondary"
                  aria-label={`${texts.remove} ${user.username}`}
                  busy={change.isPending}
                  onClick={() => change.mutate({ username: user.username, remove: true })}
                >
                  {texts.remove}
                </BusyButton>
              </li>
            );
          })}
        </ul>
      )}
      <form className="form user-list-add" onSubmit={add} noValidate>
        <div className="field">
          <label htmlFor={inputId}>Username to {texts.add.toLowerCase()}</label>
          <input
            id={inputId}
            name="username"
            autoComplete="off"
            value={username}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${inputId}-error` : undefined}
            onChange={(e) => {
              setUsername(e.target.value);
              setError(null);
            }}
          />
        </div>
        <SubmitButton className="button" busy={change.isPending}>
          {texts.add}
        </SubmitButton>
      </form>
      {error && (
        <p id={`${inputId}-error`} className="form-error" role="alert">
          {error}
        </p>
      )}
      {notice && (
        <p className="form-success" role="status">
          {notice}
        </p>
      )}
    </section>
  );
}
