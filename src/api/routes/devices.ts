import { z } from 'zod';
import { deviceRequestSchema, deviceSchema } from '../../bank/schemas/device.js';
import { participantListingSchema } from '../../bank/schemas/participant-listing.js';
import { findOrCreateDevice, listParticipants, listParticipantsInput } from '../../starter/devices.js';
import { route } from '../route.js';

/**
 * Steps 2-3 of the biometric flow: the customer's device at the bank, and the participants to enroll with.
 */
export const deviceRoutes = [
  route({
    method: 'POST',
    path: '/v1/devices',
    operationId: 'findOrCreateDevice',
    tag: 'Devices',
    summary: 'Find the device by fingerprint and tax number at the bank, or create it',
    body: deviceRequestSchema,
    answer: deviceSchema,
    description:
      'A repeat with the same Idempotency-Key and body gets the first answer without asking the bank again (on ' +
      'the same API process; another asks the bank, whose find-or-create answers the same device); the key ' +
      'with another body is a 409.',
    call: async (ctx, { body, idempotency }) => ({
      body: await ctx.keptAnswers.answer(idempotency, body, () => findOrCreateDevice(ctx.bank, body)),
    }),
  }),
  route({
    method: 'GET',
    path: '/v1/participants',
    operationId: 'listParticipants',
    tag: 'Devices',
    summary: 'The participants a customer can enroll with; with a device, the enrolled ones first',
    query: listParticipantsInput,
    answer: z.object({ data: z.array(participantListingSchema) }),
    call: async (ctx, { query }) => ({ body: { data: await listParticipants(ctx.bank, query) } }),
  }),
];
