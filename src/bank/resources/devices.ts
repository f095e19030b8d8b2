import { body, endpoint } from '../resource.js';
import { deviceSchema, type DeviceRequest } from '../schemas/device.js';

/** The customer's devices; read by the starter before a journey starts, so no activity. */
export const devices = {
  /** POST /biometrics/devices — the device with the same fingerprint and tax number when one exists. */
  findOrCreateDevice: endpoint({
    method: 'POST',
    route: '/biometrics/devices',
    request: body<DeviceRequest>(),
    record: deviceSchema,
    answers: 'record',
    activity: false,
  }),
};
