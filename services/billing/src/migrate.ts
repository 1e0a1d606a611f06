import { runMigration } from '@productgen/service-kit';
import { createModels } from './data/models';

/** Distributed mode's migration step: the billing database's collections and indexes, before the service starts. */
runMigration({ role: 'billing', defaultDbName: 'billing', createModels });
