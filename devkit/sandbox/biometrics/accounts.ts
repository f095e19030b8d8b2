import { randomInt } from 'node:crypto';
import type { AccountInfo } from '../../../src/bank/schemas/enrollment.js';
import type { CreateEnrollmentRequest } from '../../../src/bank/schemas/enrollment-request.js';
import type { Participant } from '../../../src/bank/schemas/participant.js';
import type { DeviceRecord } from './state.js';

const digits = (length: number) => Array.from({ length }, () => String(randomInt(10))).join('');

function holder(device: DeviceRecord) {
  return { name: device.counterparty_name ?? 'Cliente Sandbox', tax_number: device.counterparty_tax_number };
}

/** `12345-6` carries its check digit; the bank's shape keeps it apart. */
function splitDigit(number: string): { number: string; digit: string } {
  const match = /^(.+)-(\w)$/.exec(number);
  return match?.[1] && match[2] ? { number: match[1], digit: match[2] } : { number, digit: '' };
}

/** The suggestion of a create-enrollment request (either form) in the bank's account shape. */
export function suggestedAccountInfo(
  request: CreateEnrollmentRequest,
  device: DeviceRecord,
  participant: Participant,
): AccountInfo | null {
  if (request.account_info) {
    const { ispb, issuer, number, account_type } = request.account_info;
    return {
      ...holder(device),
      ispb,
      branch: issuer,
      ...splitDigit(number),
      type: account_type ?? 'checking',
    };
  }
  if (request.account_number !== undefined && request.account_branch !== undefined) {
    return {
      ...holder(device),
      ispb: participant.ispb,
      branch: request.account_branch,
      number: request.account_number,
      digit: request.account_digit ?? '',
      type: request.account_type ?? 'checking',
    };
  }
  return null;
}

/** The account the customer picks at the bank when the merchant suggested none. */
export function customerAccount(device: DeviceRecord, participant: Participant): AccountInfo {
  return {
    ...holder(device),
    ispb: participant.ispb,
    branch: digits(4),
    number: digits(7),
    digit: digits(1),
    type: 'checking',
  };
}
