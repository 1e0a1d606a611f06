import { routesFor } from '@productgen/mf-shared';
import { PricingPage } from './pricing/PricingPage';
import { SettingsPage } from './settings/SettingsPage';

export const routes = routesFor('mfe_dashboard', { '/settings': <SettingsPage />, '/pricing': <PricingPage /> });
