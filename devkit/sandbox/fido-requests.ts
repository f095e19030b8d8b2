import { z } from 'zod';
import {
  authorizePaymentRequestSchema,
  registerCredentialRequestSchema,
} from '../../src/bank/schemas/fido.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The spec's reference names the member `client_data_JSON`, its guide writes `client_data_json`, and which
 * one the bank accepts is not shown. The sandbox takes either and hands the shared schema the reference
 * spelling; when both are present the reference spelling wins.
 */
export function withReferenceSpelling(body: unknown): unknown {
  if (!isRecord(body) || !isRecord(body.fido_assertion)) return body;
  const response = body.fido_assertion.response;
  if (!isRecord(response) || !('client_data_json' in response) || 'client_data_JSON' in response) return body;
  const { client_data_json, ...rest } = response;
  return {
    ...body,
    fido_assertion: { ...body.fido_assertion, response: { ...rest, client_data_JSON: client_data_json } },
  };
}

/** What the sandbox's `register` route parses its body with. */
export const sandboxRegisterRequestSchema = z.preprocess(
  withReferenceSpelling,
  registerCredentialRequestSchema,
);

/** What the sandbox's `authorize` route parses its body with. */
export const sandboxAuthorizeRequestSchema = z.preprocess(
  withReferenceSpelling,
  authorizePaymentRequestSchema,
);
