import type { ReactNode } from 'react';
import { PageTitle } from '../../../components/Page.tsx';

export function AuthCard({
  title,
  children,
  footer,
}: {
  title: string;
  children: ReactNode;
  footer: ReactNode;
}) {
  return (
    <div className="page auth-page">
      <div className="auth-card">
        <PageTitle>{title}</PageTitle>
        {children}
        <p className="auth-footer">{footer}</p>
      </div>
    </div>
  );
}
