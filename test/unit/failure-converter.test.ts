import { createRequire } from 'node:module';
import {
  ApplicationFailure,
  defaultPayloadConverter,
  type FailureConverter,
  type ProtoFailure,
} from '@temporalio/common';
import { failureTypes } from '../../src/contract/journeys.js';
import { failureConverterPath } from '../../src/temporal/data-converter.js';

const { failureConverter } = createRequire(import.meta.url)(failureConverterPath) as {
  failureConverter: FailureConverter;
};
const toFailure = (error: Error) => failureConverter.errorToFailure(error, defaultPayloadConverter);
const fromFailure = (failure: ProtoFailure) =>
  failureConverter.failureToError(failure, defaultPayloadConverter);

describe("bankflow's failure converter", () => {
  it('moves the message and stack trace of a failure and of its causes into encoded attributes, and back', () => {
    const bank = ApplicationFailure.nonRetryable(
      'cancelBoleto: not found (HTTP 404): boleto b-1 not found',
      'BankNotFound',
    );
    const outer = ApplicationFailure.create({ message: 'payment p-1 refused', type: 'Refused', cause: bank });

    const failure = toFailure(outer);
    for (const level of [failure, failure.cause]) {
      expect(level?.message).toBe('Encoded failure');
      expect(level?.stackTrace).toBe('');
      expect(level?.encodedAttributes).toBeDefined();
    }
    expect(failure.applicationFailureInfo?.type).toBe('Refused');
    expect(failure.cause?.applicationFailureInfo).toMatchObject({ type: 'BankNotFound', nonRetryable: true });

    const read = fromFailure(failure) as ApplicationFailure;
    expect(read).toBeInstanceOf(ApplicationFailure);
    expect(read.message).toBe('payment p-1 refused');
    // The stack trace as thrown: its first frame (this file) included.
    expect(read.stack?.split('\n').slice(0, 2)).toEqual(outer.stack?.split('\n').slice(0, 2));
    expect(read.cause).toBeInstanceOf(ApplicationFailure);
    expect(read.cause?.message).toBe('cancelBoleto: not found (HTTP 404): boleto b-1 not found');
    expect((read.cause as ApplicationFailure).type).toBe('BankNotFound');
  });

  it('reads a failure written before failures were encoded, in clear', () => {
    const read = fromFailure({
      message: 'an older failure',
      stackTrace: 'at somewhere',
      applicationFailureInfo: { type: 'BankValidation' },
    });
    expect(read.message).toBe('an older failure');
    expect(read.stack).toBe('at somewhere');
  });

  it('leaves in clear only the refusal of a payload bankflow did not write, which goes to a sender without the keys', () => {
    const refused = ApplicationFailure.nonRetryable(
      'refused the update registerCredential: its payload is not encrypted (encoding "json/plain")',
      failureTypes.plaintextRefused,
    );
    const failure = toFailure(refused);
    expect(failure.message).toBe(refused.message);
    expect(failure.encodedAttributes).toBeFalsy();
    expect(toFailure(new Error(refused.message)).message).toBe('Encoded failure');
  });
});
