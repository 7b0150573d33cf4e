import type { AuthorProfile } from '@inkwell/contract';
import { useQuery } from '@tanstack/react-query';
import { NavLink, Outlet, useOutletContext, useParams } from 'react-router';
import { Avatar } from '../../../components/Avatar.tsx';
import { FeedLink } from '../../../components/FeedLink.tsx';
import { PageTitle } from '../../../components/Page.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { isApiError } from '../../../lib/api.ts';
import { paths, url } from '../../../lib/paths.ts';
import { useAccount } from '../../../lib/session.tsx';
import { displayName } from '../../../lib/titles.ts';
import { authorQuery } from '../api/authors.ts';
import { FollowButton } from './FollowButton.tsx';

const NO_BIOGRAPHY = 'No biography available';

/** The author shown by the profile layout, for its tabs. */
export const useProfileAuthor = () => useOutletContext<AuthorProfile>();

export function AuthorPage() {
  const username = useParams().authorId ?? '';
  const account = useAccount();
  const author = useQuery(authorQuery(username));

  if (isApiError(author.error, 404)) {
    return (
      <div className="page page-narrow">
        <PageTitle>Author not found</PageTitle>
        <p>There is no author called {username}.</p>
      </div>
    );
  }
  if (author.isPending) return <Loading />;
  if (author.isError) return <Status kind="error">Could not load this author.</Status>;

  const a = author.data;
  const name = displayName(a);
  const tab = (to: string, label: string, end = false) => (
    <li>
      <NavLink to={to} end={end} className="tab">
        {label}
      </NavLink>
    </li>
  );
  return (
    <div className="page profile">
      <FeedLink
        title={`New chapters by ${name}`}
        href={url(`/api/authors/${encodeURIComponent(a.username)}/feed.atom`)}
      />
      <aside className="profile-sidebar" aria-label="About the author">
        <Avatar src={a.avatar} name={name} size={120} decorative />
        <PageTitle title={name}>{name}</PageTitle>
        {name !== a.username && <p className="muted">@{a.username}</p>}
        {account && account.id !== a.id && <FollowButton author={a} />}
        <h2 className="profile-about-title">About</h2>
        <p className="profile-bio">{a.biography || NO_BIOGRAPHY}</p>
      </aside>
      <div className="profile-main">
        <nav aria-label="Author sections">
          <ul className="tabs">
            {tab(paths.author(a.username), 'Recent Work', true)}
            {tab(paths.authorBooks(a.username), 'All Books')}
            {tab(paths.authorChat(a.username), 'Chat')}
          </ul>
        </nav>
        <Outlet context={a} />
      </div>
    </div>
  );
}
