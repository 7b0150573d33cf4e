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

/** A failed load, said with a way to ask again: "Could not load ... [Try again]". */
export function LoadError({ children, onRetry }: { children: ReactNode; onRetry(): void }) {
  return (
    <Status kind="error">
      {children}{' '}
      <button type="button" className="button button-small" onClick={onRetry}>
        Try again
      </button>
    </Status>
  );
}
