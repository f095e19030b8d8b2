/**
 * Where Temporal is reached when neither the variables nor the profile name an address (the SDK's default
 * too).
 */
const defaultTemporalAddress = 'localhost:7233';

/**
 * The address a connection uses; unset stays unset in the config, where `bankflow dev` reads it as "embed
 * one".
 */
export const temporalAddress = (temporal: { address?: string | undefined }): string =>
  temporal.address ?? defaultTemporalAddress;
