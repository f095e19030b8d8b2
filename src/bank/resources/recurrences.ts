import { body, endpoint } from '../resource.js';
import { recurrenceSchema, type GenerateRecurrenceRequest } from '../schemas/recurrence.js';

/** Pix automatic recurrences; the recurrence workflow generates each. */
export const recurrences = {
  /** POST /banking/cashin/pix/recurrences — a repeated external_id answers the first recurrence. */
  generateRecurrence: endpoint({
    method: 'POST',
    route: '/banking/cashin/pix/recurrences',
    request: body<GenerateRecurrenceRequest>(),
    record: recurrenceSchema,
    answers: 'record',
    activity: true,
  }),
};
