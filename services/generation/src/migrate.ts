import { runMigration } from '@productgen/service-kit';
import { createModels } from './data/schemas';

/** Distributed mode's migration step: the generation database's collections and indexes, before the service starts. */
runMigration({ role: 'generation', defaultDbName: 'generation', createModels });
