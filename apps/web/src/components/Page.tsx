import type { ReactNode } from 'react';
import { documentTitle } from '../lib/titles.ts';

/**
 * A page's heading and browser title. The heading is where focus lands after a route change
 * (see app/layouts/RootLayout), so screen-reader users hear the new page's name.
 */
export function PageTitle({
  children,
  title,
  className,
}: {
  children: ReactNode;
  title?: string;
  className?: string;
}) {
  const text = title ?? (typeof children === 'string' ? children : undefined);
  return (
    <>
      <title>{documentTitle(text)}</title>
      <h1 className={className} tabIndex={-1} data-page-heading="">
        {children}
      </h1>
    </>
  );
}
