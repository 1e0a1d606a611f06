import { routesFor } from '@productgen/mf-shared';
import { LoginPage } from './login/LoginPage';

export const routes = routesFor('mfe_marketing', { '/login': <LoginPage /> });
