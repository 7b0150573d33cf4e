import { Link, useSearchParams } from 'react-router';
import { PageTitle } from '../components/Page.tsx';
import { Tabs, type TabItem } from '../components/Tabs.tsx';
import { FollowedAuthors } from '../features/authors/components/FollowedAuthors.tsx';
import { FollowedBooks } from '../features/books/components/FollowedBooks.tsx';
import { paths } from '../lib/paths.ts';

type FollowingTab = 'authors' | 'books';

const TABS: readonly TabItem<FollowingTab>[] = [
  { key: 'authors', label: 'Authors', panel: () => <FollowedAuthors /> },
  { key: 'books', label: 'Books', panel: () => <FollowedBooks /> },
];

/**
 * Following: the authors the reader follows (the first tab, the page as it always was) and the
 * books they follow, with unread counts (issue 19). The tab is in the URL (`?tab=books`), so a
 * reload, the back button and a link keep it.
 */
export function FollowingPage() {
  const [params, setParams] = useSearchParams();
  const selected: FollowingTab = params.get('tab') === 'books' ? 'books' : 'authors';
  return (
    <div className="page">
      <PageTitle>Following</PageTitle>
      <p className="muted">
        New chapters by the authors and of the books you follow, in a feed reader:{' '}
        <Link to={paths.privateFeed}>your private feed</Link>.
      </p>
      <Tabs
        label="What you follow"
        items={TABS}
        selected={selected}
        onSelect={(key) =>
          setParams(key === 'authors' ? {} : { tab: key }, {
            replace: true,
            preventScrollReset: true,
          })
        }
      />
    </div>
  );
}
