// Who keeps reading (issue 20): a route of its own, so only the Stats page downloads the charts.
export { StatsPage as WorkspaceStatsPage } from '../../features/stats/components/StatsPage.tsx';
