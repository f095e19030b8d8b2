import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loadAssets, sendAsset, type StaticAsset } from '../../http/static-assets.js';
import { hostedPageUrl, widgetPath } from '../page-urls.js';
import type { WebAuthnSettings } from '../webauthn.js';

const scripts = ['widget.js', 'registration.js', 'webauthn-json.js'];
const pages = loadAssets(new URL('../pages/', import.meta.url), [
  'widget.html',
  'registration.html',
  ...scripts,
]);

const hostedPage = (name: string): StaticAsset => {
  const asset = pages.get(name);
  if (!asset) throw new Error(`no hosted page file ${name}`);
  return asset;
};

/**
 * Sends a hosted page from the relying party's host; reached on another host (127.0.0.1), the customer is
 * redirected there first, or the browser would refuse the WebAuthn ceremony.
 */
export function sendHostedPage(
  request: FastifyRequest,
  reply: FastifyReply,
  webauthn: WebAuthnSettings,
  name: string,
): FastifyReply {
  const reachedAt = `${request.protocol}://${request.host}`;
  const canonical = hostedPageUrl(reachedAt, webauthn.rpId, request.url);
  if (canonical !== new URL(request.url, reachedAt).toString()) return reply.redirect(canonical);
  return sendAsset(reply, hostedPage(name));
}

/** The biometric widget ({widget_url}) and the scripts of the bank's hosted pages. */
export function hostedPageRoutes(app: FastifyInstance, webauthn: WebAuthnSettings): void {
  app.get(widgetPath, (request, reply) => sendHostedPage(request, reply, webauthn, 'widget.html'));

  app.get<{ Params: { name: string } }>('/sandbox/pages/:name', async (request, reply) => {
    if (!scripts.includes(request.params.name)) return reply.callNotFound();
    return sendAsset(reply, hostedPage(request.params.name));
  });
}
