import { endpoint, optionalQuery } from '../resource.js';
import { collectionAttemptSchema, type CollectionAttemptListQuery } from '../schemas/collection-attempt.js';

const attempts = '/banking/cashin/pix/recurrences/collections/attempts';

/**
 * The collection attempts of recurrences. The list has no activity of its own: the attempts sync pages it in
 * activities that also signal the recurrences (src/activities/attempts-sync.ts).
 */
export const collectionAttempts = {
  /**
   * GET /banking/cashin/pix/recurrences/collections/attempts — one page; `listAllCollectionAttempts` walks
   * them.
   */
  listCollectionAttempts: endpoint({
    method: 'GET',
    route: attempts,
    request: optionalQuery<CollectionAttemptListQuery>(),
    record: collectionAttemptSchema,
    answers: 'pages',
    activity: false,
  }),

  /** GET /banking/cashin/pix/recurrences/collections/attempts/{id} — with its stages. */
  getCollectionAttempt: endpoint({
    method: 'GET',
    route: `${attempts}/{attempt_id}`,
    record: collectionAttemptSchema,
    answers: 'record',
    activity: true,
  }),
};
