import { routesFor } from '@productgen/mf-shared';
import { DashboardPage } from './dashboard/DashboardPage';
import { PricingPage } from './pricing/PricingPage';
import { SettingsPage } from './settings/SettingsPage';

export const routes = routesFor('mfe_dashboard', {
  '/dashboard': <DashboardPage />,
  '/settings': <SettingsPage />,
  '/pricing': <PricingPage />,
});
