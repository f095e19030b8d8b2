import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CollectionAttempt } from '../../src/bank/schemas/collection-attempt.js';
import { runCli } from '../helpers/cli.js';
import { cliEnvFor } from '../helpers/cli-env.js';
import { fixedNow } from '../helpers/data-sandbox.js';
import { attemptsIn, countByStatus, recurrenceRequest } from '../helpers/recurrences.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { tempDirs } from '../helpers/temp-dirs.js';

describe('bankflow recurrence and bankflow sync attempts', () => {
  let stack: TestStack;
  let env: Record<string, string>;
  const dir = tempDirs('bankflow-recurrence-cli-')();

  const cli = (...args: string[]) => runCli(args, env);
  const requestFile = (request: unknown) => {
    const file = path.join(dir, `${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(request));
    return file;
  };

  beforeAll(async () => {
    stack = await startTestStack({ now: fixedNow });
    env = cliEnvFor(stack);
  });
  afterAll(() => stack?.stop());

  it('`recurrence create` with another request under the same external_id exits 1 naming the members', async () => {
    const request = recurrenceRequest(stack);
    expect((await cli('recurrence', 'create', '--file', requestFile(request))).code).toBe(0);
    const conflicting = await cli(
      'recurrence',
      'create',
      '--file',
      requestFile({ ...request, description: 'Outro plano' }),
    );
    expect(conflicting.code).toBe(1);
    expect(conflicting.stderr).toMatch(
      new RegExp(
        `^error: recurrence:${request.external_id} was started with other terms: description \\(started with ".+", now "Outro plano"\\);`,
      ),
    );
  });

  it('`recurrence create --file` generates the recurrence and `recurrence get` shows it with its attempts', async () => {
    const request = recurrenceRequest(stack);
    const created = await cli('recurrence', 'create', '--file', requestFile(request));
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const output = JSON.parse(created.stdout);
    expect(output).toMatchObject({
      workflowId: `recurrence:${request.external_id}`,
      externalId: request.external_id,
      recurrence: { external_id: request.external_id, status: 'approved' },
    });

    const produced = await fetch(
      `${stack.sandbox.url}/sandbox/recurrences/${output.recurrence.id}/attempts`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ attempts: [{ status: 'settled', timestamp: '2033-01-10T09:00:00Z' }] }),
      },
    );
    const [attempt] = ((await produced.json()) as { data: CollectionAttempt[] }).data;
    const synced = await cli(
      'sync',
      'attempts',
      '--from',
      '2033-01-10T00:00:00Z',
      '--to',
      '2033-01-11T00:00:00Z',
    );
    expect(synced.code).toBe(0);
    expect(JSON.parse(synced.stdout)).toMatchObject({ attempts: 1, recurrencesUpdated: 1 });

    const got = await cli('recurrence', 'get', '--external-id', request.external_id);
    expect(got.code).toBe(0);
    const state = JSON.parse(got.stdout);
    expect(state).toMatchObject({
      phase: 'active',
      status: 'approved',
      recurrenceId: output.recurrence.id,
      attemptsByStatus: { settled: 1 },
    });
    expect(state.attempts).toEqual([expect.objectContaining({ id: attempt!.id, sources: ['sync'] })]);
  });

  it('`recurrence create` names the offending field of the file and calls nothing', async () => {
    const request = recurrenceRequest(stack);
    const invalid = { ...request, counterparty: { ...request.counterparty, tax_number: '123' } };
    const result = await runCli(['recurrence', 'create', '--file', '-'], env, JSON.stringify(invalid));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('error: counterparty.tax_number: must be 11 (CPF) or 14 (CNPJ) digits\n');
    const atBank = [...stack.sandbox.state.bankData.recurrences.values()].filter(
      (recurrence) => recurrence.external_id === request.external_id,
    );
    expect(atBank).toHaveLength(0);

    const notJson = await runCli(['recurrence', 'create', '--file', '-'], env, 'not json');
    expect(notJson.stderr).toBe('error: --file: stdin does not hold JSON\n');
  });

  it('`sync attempts` prints the summary of a seeded window, totals as the bank has them', async () => {
    const window = { from: '2025-04-01T00:00:00.000Z', to: '2025-04-22T00:00:00.000Z' };
    const expected = attemptsIn(stack.sandbox, window.from, window.to);
    expect(expected.length).toBeGreaterThan(20);
    const result = await cli(
      'sync',
      'attempts',
      '--from',
      window.from,
      '--to',
      window.to,
      '--page-size',
      '20',
    );
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({
      ...window,
      pages: Math.ceil(expected.length / 20),
      attempts: expected.length,
      byStatus: countByStatus(expected),
      recurrencesUpdated: 0,
      unknownAttempts: expected.length,
    });
  });

  it('`sync attempts` and `recurrence get` name the option at fault', async () => {
    const backwards = await cli(
      'sync',
      'attempts',
      '--from',
      '2025-04-02T00:00:00Z',
      '--to',
      '2025-04-01T00:00:00Z',
    );
    expect(backwards.code).toBe(1);
    expect(backwards.stderr).toBe('error: --to: must be later than from\n');
    const badDate = await cli('sync', 'attempts', '--from', 'yesterday', '--to', '2025-04-01T00:00:00Z');
    expect(badDate.stderr).toMatch(/^error: --from: /);
    const badSize = await cli(
      'sync',
      'attempts',
      '--from',
      '2025-04-01T00:00:00Z',
      '--to',
      '2025-04-02T00:00:00Z',
      '--page-size',
      '500',
    );
    expect(badSize.stderr).toMatch(/^error: --page-size: /);
    const unknown = await cli('recurrence', 'get', '--external-id', 'no-such-recurrence');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: no workflow recurrence:no-such-recurrence/);
  });

  it('`recurrence cancel` ends the recurrence with its reason and prints the result; a blank reason or a second cancel exits 1', async () => {
    const request = recurrenceRequest(stack);
    const created = JSON.parse((await cli('recurrence', 'create', '--file', requestFile(request))).stdout);
    const key = ['--external-id', request.external_id];

    const blank = await cli('recurrence', 'cancel', ...key, '--reason', '  ');
    expect(blank.code).toBe(1);
    expect(blank.stdout).toBe('');
    expect(blank.stderr).toBe('error: --reason: required, a non-empty text saying why\n');
    const tooLong = await cli('recurrence', 'cancel', ...key, '--reason', 'x'.repeat(501));
    expect(tooLong.stderr).toMatch(/^error: --reason: /);

    const cancelled = await cli('recurrence', 'cancel', ...key, '--reason', 'customer ended the contract');
    expect(cancelled.stderr).toBe('');
    expect(cancelled.code).toBe(0);
    const result = JSON.parse(cancelled.stdout);
    expect(result).toMatchObject({
      outcome: 'stopped',
      recurrence: { id: created.recurrence.id, status: 'approved' },
    });
    expect(result.reason).toMatch(/^cancelled by the merchant: customer ended the contract\. /);
    const got = JSON.parse((await cli('recurrence', 'get', ...key)).stdout);
    expect(got).toMatchObject({ phase: 'stopped', status: 'approved' });

    const again = await cli('recurrence', 'cancel', ...key, '--reason', 'again');
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      `error: recurrence:${request.external_id} has ended (completed) and takes no more requests\n`,
    );
  });
});
