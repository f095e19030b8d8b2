'use strict';
/* global require, exports */
/*
 * bankflow's failure converter: a failure's message and stack trace carry the bank's answers and the customer
 * data in them, so they travel as a payload (`encodedAttributes`) the payload codec encrypts, and a history shows
 * only "Encoded failure". The SDK loads a failure converter by path (src/temporal/data-converter.ts), with
 * `require` in clients and workers and through webpack in the workflow bundle, hence CommonJS: jest cannot
 * `require` bankflow's ES modules. The workflow sandbox runs it too, so it needs nothing from Node.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ApplicationFailure, DefaultFailureConverter } = require('@temporalio/common');

/*
 * failureTypes.plaintextRefused (src/contract/journeys.ts; test/unit/failure-converter.test.ts keeps the two
 * equal). A refusal of a payload bankflow did not write goes to a sender without the keys, which could not read it
 * encrypted; it says only how the payload was not bankflow's, so it stays in clear.
 */
const plaintextRefused = 'PlaintextPayloadRefused';

const encoded = new DefaultFailureConverter({ encodeCommonAttributes: true });
const clear = new DefaultFailureConverter();

exports.failureConverter = {
  errorToFailure(error, payloadConverter, context) {
    const refusal = error instanceof ApplicationFailure && error.type === plaintextRefused;
    return (refusal ? clear : encoded).errorToFailure(error, payloadConverter, context);
  },
  failureToError(failure, payloadConverter, context) {
    return encoded.failureToError(failure, payloadConverter, context);
  },
};
