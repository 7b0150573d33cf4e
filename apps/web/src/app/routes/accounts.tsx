import { paths } from '../../lib/paths.ts';
import { NoMatch } from '../NoMatch.tsx';

export { LoginPage } from '../../features/accounts/components/LoginPage.tsx';
export { LogoutPage } from '../../features/accounts/components/LogoutPage.tsx';
export { SignupPage } from '../../features/accounts/components/SignupPage.tsx';

export const AccountsNoMatch = () => (
  <NoMatch back={{ to: paths.login(), label: 'Go to the login page' }} />
);
