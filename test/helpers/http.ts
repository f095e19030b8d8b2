import { webhookHeaders } from '../../src/bank/schemas/webhook.js';
import { signWebhookBody } from '../../src/bank/webhook-signature.js';

export interface HttpAnswer {
  statusCode: number;
  body: string;
  headers: Headers;
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A plain HTTP call over the loopback, answered with the status, body text and a JSON reader. */
export async function httpCall(
  url: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<HttpAnswer> {
  const response = await fetch(url, init);
  const body = await response.text();
  return { statusCode: response.status, body, headers: response.headers, json: () => JSON.parse(body) };
}

/** Posts a bank webhook to a receiver as the bank does: JSON, signed with the shared secret. */
export function postSignedWebhook(receiverUrl: string, body: string, secret: string): Promise<HttpAnswer> {
  return httpCall(`${receiverUrl}/webhooks`, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      [webhookHeaders.signature]: signWebhookBody(body, secret),
    },
  });
}
