import { defaultWebAuthnSettings, type WebAuthnSettings } from '../webauthn.js';

/** The sandbox's relying-party settings: the defaults, then whatever the sandbox was started with. */
export function sandboxWebAuthnSettings(overrides: Partial<WebAuthnSettings> = {}): WebAuthnSettings {
  return {
    ...defaultWebAuthnSettings,
    ...overrides,
    origins: [...(overrides.origins ?? defaultWebAuthnSettings.origins)],
  };
}

/**
 * Unless origins were configured explicitly, pages served by the sandbox itself are trusted once its address
 * is known: the address it listens on and the same port on localhost.
 */
export function trustListeningOrigins(
  settings: WebAuthnSettings,
  overrides: Partial<WebAuthnSettings> | undefined,
  listeningUrl: string,
): void {
  if (overrides?.origins) return;
  const { origin, port } = new URL(listeningUrl);
  for (const trusted of [origin, `http://localhost:${port}`]) {
    if (!settings.origins.includes(trusted)) settings.origins.push(trusted);
  }
}
