import { Writable } from 'node:stream';
import { ApplicationFailure } from '@temporalio/common';
import { toApplicationFailure } from '../../src/activities/failures.js';
import { BankValidationError } from '../../src/bank/errors.js';
import { createLogger } from '../../src/logger.js';
import { redactDeep } from '../../src/log-redaction.js';

/** What a logger writes, one parsed record per line. */
function capturedLogger() {
  const records: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) records.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger('trace', destination), records };
}

describe('log redaction', () => {
  it('masks sensitive keys at any depth, in any spelling, in arrays and in errors', () => {
    const { logger, records } = capturedLogger();
    const deep = { a: { b: { c: { d: { e: { tax_number: '12345678909', note: 'kept' } } } } } };
    const failure = ApplicationFailure.create({
      message: 'report upload failed',
      type: 'ReportUploadFailed',
      details: [{ request: { body: { counterparty: { name: 'Maria Silva' }, counterpartyTaxNumber: '1' } } }],
    });
    logger.warn(
      {
        deep,
        list: [{ account_info: { number: '123456-7' } }, [{ holderName: 'Maria Silva' }]],
        headers: { 'X-Webhook-Secret': 'shh', 'x-webhook-signature': 'ab'.repeat(32), host: 'bank' },
        device: {
          fido_assertion: { response: { signature: 'assertion-sig' } },
          public_key_encoded: 'creation-opts',
        },
        enrollment: { account_number: '98765', clientSecret: 's3cr3t', Authorization: 'Basic x' },
        err: failure,
      },
      'something happened',
    );
    const line = JSON.stringify(records[0]);
    for (const leak of [
      '12345678909',
      'Maria Silva',
      '123456-7',
      'shh',
      'abab',
      'assertion-sig',
      'creation-opts',
      '98765',
      's3cr3t',
    ]) {
      expect(line).not.toContain(leak);
    }
    expect(records[0]).toMatchObject({
      msg: 'something happened',
      deep: { a: { b: { c: { d: { e: { tax_number: '[redacted]', note: 'kept' } } } } } },
      headers: { 'X-Webhook-Secret': '[redacted]', host: 'bank' },
      err: { message: 'report upload failed', type: 'ApplicationFailure', name: 'ApplicationFailure' },
    });
  });

  it('leaves the logged objects untouched and survives cycles and depth', () => {
    const record: Record<string, unknown> = { tax_number: '12345678909', shared: { id: 1 } };
    record.self = record;
    record.twice = record.shared;
    const copy = redactDeep(record) as Record<string, unknown>;
    expect(record.tax_number).toBe('12345678909');
    expect(copy).toMatchObject({ tax_number: '[redacted]', shared: { id: 1 }, twice: { id: 1 } });
    expect(copy.self).toBe('[not logged: too deep or circular]');
    let nested: Record<string, unknown> = { tax_number: 'bottom' };
    for (let level = 0; level < 100; level++) nested = { nested };
    expect(JSON.stringify(redactDeep(nested))).not.toContain('bottom');
  });

  it("summarises a bank failure without the bank's words: status, code, titles and pointers", () => {
    const { logger, records } = capturedLogger();
    const context = {
      operation: 'createDevice',
      method: 'POST',
      path: '/biometrics/devices',
      requestId: 'r1',
    };
    const thrown = new BankValidationError({ ...context, status: 422 }, [
      {
        title: 'INVALID_PARAMETER',
        detail: 'tax number 12345678909 of Maria Silva is not valid',
        source: { pointer: '/counterparty_tax_number' },
      },
    ]);
    logger.warn({ err: thrown }, 'device refused');
    logger.warn({ error: toApplicationFailure(thrown) }, 'Activity failed');
    const lines = records.map((record) => JSON.stringify(record));
    for (const line of lines) {
      expect(line).not.toContain('12345678909');
      expect(line).not.toContain('Maria Silva');
    }
    const summary = {
      type: 'BankValidation',
      operation: 'createDevice',
      status: 422,
      errors: [{ title: 'INVALID_PARAMETER', pointer: '/counterparty_tax_number' }],
    };
    expect(records[0]?.err).toEqual({
      type: 'BankValidationError',
      message:
        'bank failure (message not logged): createDevice BankValidation HTTP 422 INVALID_PARAMETER at /counterparty_tax_number',
      bank: summary,
    });
    expect(records[1]?.error).toMatchObject({ type: 'ApplicationFailure', bank: summary });
    // The error itself keeps the bank's words for the caller (the merchant's reason, the CLI's message).
    expect(thrown.message).toContain('is not valid');
  });
});
