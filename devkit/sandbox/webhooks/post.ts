import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { webhookHeaders } from '../../../src/bank/schemas/webhook.js';
import { signWebhookBody } from '../../../src/bank/webhook-signature.js';

export interface WebhookPost {
  url: string;
  eventId: string;
  /** The exact bytes that are signed and sent. */
  body: string;
  secret: string;
  timeoutMs: number;
  /** Aborts the attempt when the sandbox closes. */
  signal: AbortSignal;
}

export type PostOutcome = { statusCode: number } | { error: string };

/**
 * One delivery attempt. Never rejects: a status code, or why none came (network error, timeout, abort).
 * No connection pooling, so nothing stays open once the attempt is over.
 */
export function postWebhook(post: WebhookPost): Promise<PostOutcome> {
  return new Promise((resolve) => {
    const url = new URL(post.url);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, {
      method: 'POST',
      agent: false,
      signal: post.signal,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(post.body),
        'user-agent': 'bankflow-sandbox',
        [webhookHeaders.id]: post.eventId,
        [webhookHeaders.signature]: signWebhookBody(post.body, post.secret),
        [webhookHeaders.secret]: post.secret,
      },
    });
    let settled = false;
    const settle = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      settle({ error: `timed out after ${post.timeoutMs} ms` });
      request.destroy();
    }, post.timeoutMs);
    request.on('error', (error) => settle({ error: error.message }));
    request.on('response', (response) => {
      response.resume();
      response.on('close', () =>
        settle(
          response.complete ? { statusCode: response.statusCode ?? 0 } : { error: 'response interrupted' },
        ),
      );
    });
    request.end(post.body);
  });
}
