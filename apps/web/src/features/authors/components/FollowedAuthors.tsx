import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Avatar } from '../../../components/Avatar.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { paths } from '../../../lib/paths.ts';
import { displayName } from '../../../lib/titles.ts';
import { followsQuery } from '../api/authors.ts';

const NO_BIO_YET = 'No biography provided yet!';

/** The authors the reader follows: the Authors tab of the Following page. */
export function FollowedAuthors() {
  const follows = useQuery(followsQuery());
  return (
    <>
      {follows.isPending && <Loading />}
      {follows.isError && <Status kind="error">Could not load the authors you follow.</Status>}
      {follows.data?.length === 0 && (
        <Status kind="empty">
          You are not following anyone yet.{' '}
          <Link to={paths.books}>Find authors among the books.</Link>
        </Status>
      )}
      {follows.data && follows.data.length > 0 && (
        <ul className="card-grid">
          {follows.data.map((author) => {
            const name = displayName(author);
            return (
              <li key={author.id} className="follow-card">
                <Avatar src={author.avatar} name={name} size={72} decorative />
                <h2>{name}</h2>
                <p className="follow-card-bio">{author.biography || NO_BIO_YET}</p>
                <Link
                  className="button button-small"
                  to={paths.author(author.username)}
                  aria-label={`View Profile of ${name}`}
                >
                  View Profile
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
