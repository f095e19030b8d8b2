import { z } from 'zod';

/** The WebAuthn options the bank gave, as the JSON text the widget takes. */
export const optionsAnswer = z.object({
  options: z.string().describe('The WebAuthn options as JSON text, passed to the widget as they are'),
});
