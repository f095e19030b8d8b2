import type { FastifyInstance } from 'fastify';
import { BiometricsLifecycle } from '../biometrics/lifecycle.js';
import type { BiometricsContext } from '../biometrics/context.js';
import { bankAuthorizationPageRoutes } from './bank-authorization-page.js';
import { biometricsControlRoutes } from './biometrics-control.js';
import { biometricsDeviceRoutes } from './biometrics-devices.js';
import { biometricsEnrollmentRoutes } from './biometrics-enrollments.js';
import { biometricsPaymentRoutes } from './biometrics-payments.js';
import { hostedPageRoutes } from './hosted-pages.js';
import { registrationPageRoutes } from './registration-page.js';

/** The Pix biometrics family of the Banking API, and the control API that plays the bank's side of it. */
export function biometricsRoutes(app: FastifyInstance, deps: Omit<BiometricsContext, 'lifecycle'>): void {
  const context: BiometricsContext = {
    ...deps,
    lifecycle: new BiometricsLifecycle(deps.state.biometrics, deps.webhooks, deps.state.reads),
  };
  biometricsDeviceRoutes(app, context);
  biometricsEnrollmentRoutes(app, context);
  biometricsPaymentRoutes(app, context);
  biometricsControlRoutes(app, context);
  bankAuthorizationPageRoutes(app, context);
  registrationPageRoutes(app, context);
  hostedPageRoutes(app, deps.webauthn);
  // Settlement and expiry timers must not outlive the sandbox.
  app.addHook('onClose', async () => deps.state.biometrics.dispose());
}
