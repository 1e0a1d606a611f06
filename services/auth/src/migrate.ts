import { runMigration } from '@productgen/service-kit';
import { createModels } from './data/models';

/** Distributed mode's migration step: the auth database's collections and indexes, before the service starts. */
runMigration({ role: 'auth', defaultDbName: 'auth', createModels });
