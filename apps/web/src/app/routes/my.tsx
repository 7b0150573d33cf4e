export { FollowingPage } from '../FollowingPage.tsx';
export { ReadHistoryPage } from '../../features/history/components/ReadHistoryPage.tsx';
export { SettingsPage } from '../../features/settings/components/SettingsPage.tsx';
