import { PageTitle } from '../../components/Page.tsx';
import { paths } from '../../lib/paths.ts';
import { NoMatch } from '../NoMatch.tsx';

/*
 * The author workspace is built by its own issue; these placeholders keep its routes guarded and
 * its no-match page in place. Replace the components exported here to fill it in.
 */
export function WorkspacePage() {
  return (
    <div className="page">
      <PageTitle>Workspace</PageTitle>
      <h2>My Books</h2>
      <p>The writing workspace is coming soon.</p>
    </div>
  );
}

export const WorkspaceBookPage = WorkspacePage;

export const WorkspaceNoMatch = () => (
  <NoMatch back={{ to: paths.workspace, label: 'Back to Workspace' }} />
);
