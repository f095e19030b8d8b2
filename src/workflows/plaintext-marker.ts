/**
 * What a worker's payload codec hands workflow code in place of a payload that reached it unencrypted while
 * keys are configured: an object with this one member, naming the payload's encoding. Workflow code refuses it
 * (plaintext-refusal.ts); it never holds what the plaintext said.
 */
export const plaintextMarkerKey = 'bankflowRefusedPlaintextEncoding';

export type PlaintextMarker = { [plaintextMarkerKey]: string };

export function isPlaintextMarker(value: unknown): value is PlaintextMarker {
  return typeof value === 'object' && value !== null && plaintextMarkerKey in value;
}
