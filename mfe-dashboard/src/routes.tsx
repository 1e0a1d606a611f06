import { routesFor } from '@productgen/mf-shared';
import { SettingsPage } from './settings/SettingsPage';

export const routes = routesFor('mfe_dashboard', { '/settings': <SettingsPage /> });
