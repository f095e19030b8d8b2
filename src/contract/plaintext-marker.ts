/**
 * What a worker's payload codec hands workflow code in place of a payload bankflow did not write while keys
 * are configured: one in clear, or one labelled encrypted that does not decrypt (garbage, an unknown key id,
 * a truncated or altered ciphertext). An object with this one member, saying why the payload was refused in
 * words that finish "its payload ...": `is not encrypted (encoding "json/plain")`, `does not decrypt (unknown
 * key id "k9")`. Workflow code refuses it (plaintext-refusal.ts); it never holds what the payload said.
 */
export const refusedPayloadKey = 'bankflowRefusedPayload';

export type RefusedPayloadMarker = { [refusedPayloadKey]: string };

export function isRefusedPayloadMarker(value: unknown): value is RefusedPayloadMarker {
  return typeof value === 'object' && value !== null && refusedPayloadKey in value;
}
