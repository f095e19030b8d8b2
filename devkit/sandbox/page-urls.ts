/**
 * Where the bank's hosted pages live on the sandbox: the biometric widget ({widget_url}) and registration.
 */
export const widgetPath = '/sandbox/widget';

export const registrationPagePath = (enrollmentId: string) =>
  `/sandbox/registration/${encodeURIComponent(enrollmentId)}`;

const withinRpId = (hostname: string, rpId: string) => hostname === rpId || hostname.endsWith(`.${rpId}`);

/**
 * The URL of a hosted page on the relying party's host. Browsers run a WebAuthn ceremony only on a page whose
 * host is the RP id or a subdomain of it, never on an IP address; the sandbox listens on 127.0.0.1 but the RP
 * id is localhost, so its pages are served as localhost on the same port.
 */
export function hostedPageUrl(reachedAt: string, rpId: string, pathAndQuery: string): string {
  const url = new URL(pathAndQuery, reachedAt);
  if (!withinRpId(url.hostname, rpId)) url.hostname = rpId;
  return url.toString();
}
