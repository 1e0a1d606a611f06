import { routesFor } from '@productgen/mf-shared';
import { CreatePage } from './CreatePage';

export const routes = routesFor('mfe_create', { '/productgen': <CreatePage /> });
