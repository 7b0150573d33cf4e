import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { PageTitle } from '../../../components/Page.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { genreColor } from '../../../lib/constants.ts';
import { paths } from '../../../lib/paths.ts';
import { genresQuery } from '../../../lib/query.ts';

export function GenresPage() {
  const genres = useQuery(genresQuery());
  return (
    <div className="page">
      <PageTitle>Genres</PageTitle>
      {genres.isPending && <Loading />}
      {genres.isError && <Status kind="error">Could not load genres.</Status>}
      {genres.data?.length === 0 && <Status kind="empty">No genres yet.</Status>}
      {genres.data && genres.data.length > 0 && (
        <ul className="genre-grid">
          {genres.data.map((genre, i) => (
            <li key={genre.id}>
              <Link
                className="genre-box"
                to={paths.genre(genre.name)}
                style={{ backgroundColor: genreColor(i) }}
              >
                {genre.name}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
