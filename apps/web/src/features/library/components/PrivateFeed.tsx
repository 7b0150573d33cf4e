import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Status } from '../../../components/Status.tsx';
import { formatDate } from '../../../lib/format.ts';
import { feedTokenQuery, useCreateFeedToken, useRevokeFeedToken } from '../api/library.ts';

/**
 * The private Atom feed of everything the reader follows, behind a secret address. The server keeps
 * only a hash, so the address is shown once, right after it is made; making a new one replaces it.
 */
export function PrivateFeed() {
  const id = useId();
  const status = useQuery(feedTokenQuery());
  const [address, setAddress] = useState<string | null>(null);
  const create = useCreateFeedToken({
    onSuccess: (made) => setAddress(new URL(made.url, window.location.origin).href),
  });
  const revoke = useRevokeFeedToken({ onSuccess: () => setAddress(null) });
  const active = status.data?.active ?? false;

  return (
    <section id="private-feed" className="private-feed" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Private feed</h2>
      <p className="muted">
        An Atom feed of new chapters from the authors you follow, for your feed reader. Its address
        is secret: anyone who has it can read the feed.
      </p>
      {status.isError && <Status kind="error">Could not load the private feed.</Status>}
      {status.isSuccess && (
        <p>
          {active && status.data.created_at
            ? `A private feed address is active since ${formatDate(status.data.created_at)}.`
            : 'No private feed address is active.'}
        </p>
      )}
      {address && (
        <div className="field">
          <label htmlFor={`${id}-url`}>Your private feed address (shown only now)</label>
          <input id={`${id}-url`} readOnly value={address} onFocus={(e) => e.target.select()} />
        </div>
      )}
      {(create.isError || revoke.isError) && (
        <Status kind="error">Could not change the private feed. Try again.</Status>
      )}
      <div className="note-actions">
        <button
          type="button"
          className="button button-small"
          disabled={create.isPending}
          onClick={() => create.mutate()}
        >
          {active ? 'Make a new address' : 'Create private feed address'}
        </button>
        {active && (
          <button
            type="button"
            className="button button-small button-danger"
            disabled={revoke.isPending}
            onClick={() => revoke.mutate()}
          >
            Revoke address
          </button>
        )}
      </div>
    </section>
  );
}
