import { Link } from 'react-router';
import { CoverImage } from './CoverImage.tsx';

export interface CoverGridItem {
  id: number;
  title: string;
  cover: string | null;
  href: string;
}

/** A grid of covers with titles linking to the books (genre page, an author's All Books). */
export function CoverGrid({ items, label }: { items: readonly CoverGridItem[]; label: string }) {
  return (
    <ul className="cover-grid" aria-label={label}>
      {items.map((item) => (
        <li key={item.id}>
          <Link to={item.href} className="cover-tile">
            <CoverImage src={item.cover} title={item.title} />
            <span className="cover-tile-title">{item.title}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
