import { useState } from 'react';

interface CoverImageProps {
  src: string | null | undefined;
  title: string;
  className?: string;
  /** Decorative when the title is shown next to the cover (the default). */
  decorative?: boolean;
}

/** A book cover; the title printed on a plain cover when there is none or it fails to load. */
export function CoverImage({ src, title, className = '', decorative = true }: CoverImageProps) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!src || failed === src) {
    return (
      <div
        className={`cover cover-fallback ${className}`}
        aria-hidden={decorative || undefined}
        role={decorative ? undefined : 'img'}
        aria-label={decorative ? undefined : `Cover of ${title}`}
      >
        <span>{title}</span>
      </div>
    );
  }
  return (
    <img
      className={`cover ${className}`}
      src={src}
      alt={decorative ? '' : `Cover of ${title}`}
      loading="lazy"
      onError={() => setFailed(src)}
    />
  );
}
