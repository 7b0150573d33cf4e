import type { ReactNode } from 'react';

/** A visible state line: loading, empty or error. Every state of a page has one; no blank screens. */
export function Status({
  kind = 'info',
  children,
}: {
  kind?: 'loading' | 'empty' | 'error' | 'info';
  children: ReactNode;
}) {
  return (
    <p className={`status status-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}

export const Loading = ({ children = 'Loading...' }: { children?: ReactNode }) => (
  <Status kind="loading">{children}</Status>
);
