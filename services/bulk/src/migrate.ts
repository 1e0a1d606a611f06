import { runMigration } from '@productgen/service-kit';
import { createModels } from './data/models';

/** Distributed mode's migration step: the bulk database's collections and indexes, before the service starts. */
runMigration({ role: 'bulk', defaultDbName: 'bulk', createModels });
