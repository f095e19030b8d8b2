import type { BankClient } from '../bank/client.js';
import type { CollectionAttemptListQuery } from '../bank/schemas/collection-attempt.js';
import type { GenerateRecurrenceRequest } from '../bank/schemas/recurrence.js';
import { bankActivity } from './failures.js';

/** Recurrences and their collection attempts; the attempts list is read one page per call. */
export function createRecurrenceActivities(bank: BankClient) {
  return {
    generateRecurrence: bankActivity((request: GenerateRecurrenceRequest) =>
      bank.generateRecurrence(request),
    ),
    listCollectionAttempts: bankActivity((query: CollectionAttemptListQuery) =>
      bank.listCollectionAttempts(query),
    ),
    getCollectionAttempt: bankActivity((attemptId: string) => bank.getCollectionAttempt(attemptId)),
  };
}
