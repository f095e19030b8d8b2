import { Writable } from 'node:stream';
import { ApplicationFailure } from '@temporalio/common';
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
      message: 'bank call failed',
      type: 'BankValidation',
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
      err: { message: 'bank call failed', type: 'ApplicationFailure', name: 'ApplicationFailure' },
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
});
