import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { uuid } from '../../../src/bank/schemas/common.js';
import { deviceRequestSchema } from '../../../src/bank/schemas/device.js';
import type { ParticipantListing } from '../../../src/bank/schemas/participant-listing.js';
import { Refusal, type BiometricsContext } from '../biometrics/context.js';
import { listedEnrollmentsOfDevice, readEnrollmentsOfDevice } from '../biometrics/views.js';
import { sendValidationErrors, zodErrorItems } from '../errors.js';
import { parseParameters } from '../query.js';

const participantsQuerySchema = z.strictObject({ device_id: uuid.optional() });

/** Find-or-create device and the participant list, the two calls that start the biometric flow. */
export function biometricsDeviceRoutes(app: FastifyInstance, context: BiometricsContext): void {
  const biometrics = () => context.state.biometrics;

  app.post('/biometrics/devices', async (request, reply) => {
    const parsed = deviceRequestSchema.safeParse(request.body);
    if (!parsed.success) return sendValidationErrors(reply, zodErrorItems(parsed.error));
    const { load_enrollments: loadEnrollments, ...attributes } = parsed.data;
    const now = new Date().toISOString();
    let device = biometrics().findDevice(attributes.fingerprint, attributes.counterparty_tax_number);
    if (device) {
      // The same device seen again may have a new OS version, language or screen.
      Object.assign(device.record, attributes, { updated_at: now });
    } else {
      device = {
        record: { ...attributes, id: randomUUID(), inserted_at: now, updated_at: now },
        counterpartyId: randomUUID(),
      };
      biometrics().addDevice(device);
    }
    if (!loadEnrollments) return { data: device.record };
    return {
      data: {
        ...device.record,
        enrollments: listedEnrollmentsOfDevice(biometrics(), context.state.reads, device.record.id),
      },
    };
  });

  app.get('/biometrics/participants', async (request, reply) => {
    const query = parseParameters(reply, 'query', participantsQuerySchema, request.query);
    if (!query) return reply;
    const deviceId = query.device_id;
    const { participants } = biometrics();
    if (deviceId === undefined) return { data: participants };
    if (!biometrics().devices.has(deviceId)) {
      return new Refusal(404, 'NOT_FOUND', `device ${deviceId} not found`, '/query/device_id').send(reply);
    }
    const authorized = readEnrollmentsOfDevice(biometrics(), context.state.reads, deviceId)
      .map(({ record }) => record)
      .filter((record) => record.status === 'authorized');
    const listings: ParticipantListing[] = participants.map((participant) => {
      const enrollment = authorized.find((record) => record.participant_id === participant.id);
      return {
        ...participant,
        'enrolled?': enrollment !== undefined,
        enrollment: enrollment ? { ...enrollment } : null,
      };
    });
    // Enrolled participants first; the sort is stable, so each group keeps the bank's order.
    listings.sort((a, b) => Number(b['enrolled?']) - Number(a['enrolled?']));
    return { data: listings };
  });
}
