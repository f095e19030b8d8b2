import { z } from 'zod';
import { BankError, BankValidationError } from './errors.js';
import { bankErrorRetryable, type BankErrorType } from './vocabulary.js';
import { errorItemSchema, type ErrorItem } from './schemas/errors.js';

/** A bank failure as logs may show it: what failed and the bank's codes, never the bank's free text. */
export interface BankFailureSummary {
  type: string;
  operation?: string;
  status?: number;
  code?: string;
  errors?: { title: string; pointer?: string }[];
}

const isBankErrorType = (type: string | undefined): type is BankErrorType =>
  type !== undefined && Object.hasOwn(bankErrorRetryable, type);

const itemSummaries = (errors: ErrorItem[]) =>
  errors.map((item) => ({ title: item.title, ...(item.source ? { pointer: item.source.pointer } : {}) }));

/** The shape `toApplicationFailure` gives a bank failure: its type, then its context and validation items. */
const bankFailureDetails = z.object({
  type: z.string().optional(),
  details: z.array(z.unknown()).optional(),
});
const bankFailureContext = z.object({
  operation: z.string().optional(),
  status: z.number().optional(),
  code: z.string().optional(),
});
const bankFailureItems = z.object({ errors: z.array(errorItemSchema) });

/**
 * What a log line may say about a bank failure, thrown as a BankError or carried by the ApplicationFailure an
 * activity raised for one: status, the bank's code, its errors' titles and pointers. The bank's messages and
 * details can repeat what was sent (a tax number, a name), so they stay in the error, out of the logs.
 */
export function bankFailureSummary(error: Error): BankFailureSummary | undefined {
  if (error instanceof BankError) {
    return {
      type: error.type,
      operation: error.context.operation,
      status: error.context.status,
      code: error.bankCode,
      ...(error instanceof BankValidationError ? { errors: itemSummaries(error.errors) } : {}),
    };
  }
  const failure = bankFailureDetails.safeParse(error);
  if (!failure.success || !isBankErrorType(failure.data.type)) return undefined;
  const [context, validation] = failure.data.details ?? [];
  const parsedContext = bankFailureContext.safeParse(context);
  const parsedItems = bankFailureItems.safeParse(validation);
  return {
    type: failure.data.type,
    ...(parsedContext.success ? parsedContext.data : {}),
    ...(parsedItems.success ? { errors: itemSummaries(parsedItems.data.errors) } : {}),
  };
}
