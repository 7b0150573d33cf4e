// The operators' pages (issue 19): their own chunk, which nobody else ever downloads.
export { ReportsPage } from '../../features/comments/components/ReportsPage.tsx';
