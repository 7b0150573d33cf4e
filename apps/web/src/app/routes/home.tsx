export { HomePage } from '../../features/home/components/HomePage.tsx';
export { LandingPage } from '../../features/landing/components/LandingPage.tsx';
