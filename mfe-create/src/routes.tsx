import { routesFor } from '@productgen/mf-shared';
import { CreatePage } from './CreatePage';
import { JobPage } from './job/JobPage';

export const routes = routesFor('mfe_create', { '/productgen': <CreatePage />, '/job/:bulkJobUuid': <JobPage /> });
