import { routesFor } from '@productgen/mf-shared';

export const routes = routesFor('mfe_create');
