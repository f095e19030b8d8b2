import http from 'node:http';
import { Client, Connection } from '@temporalio/client';
import { runOpenLoop, type OpenLoopRun } from '../pacing.js';
import type { LoadJob, LoadMessage, LoadReply, WebhookRequest } from './protocol.js';

/**
 * The load generator, a process of its own so that building and pacing requests takes no CPU time from the
 * receiver or the worker under test. It plays the bank posting webhooks, or the bare Temporal client
 * signalling.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
const clients = new Map<string, Client>();

function post(url: string, request: WebhookRequest): Promise<boolean> {
  return new Promise((resolve) => {
    const outgoing = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode === 202));
        response.on('error', () => resolve(false));
      },
    );
    outgoing.on('error', () => resolve(false));
    outgoing.end(request.body);
  });
}

async function clientFor(address: string, namespace: string): Promise<Client> {
  const key = `${address}/${namespace}`;
  let client = clients.get(key);
  if (!client) {
    client = new Client({ connection: await Connection.connect({ address }), namespace });
    clients.set(key, client);
  }
  return client;
}

async function run(job: LoadJob): Promise<OpenLoopRun> {
  const pacing = { ratePerSecond: job.ratePerSecond, durationMs: job.durationMs };
  if (job.kind === 'webhooks') {
    return runOpenLoop({ ...pacing, send: (index) => post(job.url, job.requests[index]!) });
  }
  const client = await clientFor(job.address, job.namespace);
  return runOpenLoop({
    ...pacing,
    send: async (index) => {
      const request = job.requests[index]!;
      await client.workflow.signalWithStart(request.workflowType, {
        workflowId: request.workflowId,
        taskQueue: request.taskQueue,
        args: request.args,
        signal: request.signal,
        signalArgs: request.signalArgs,
      });
      return true;
    },
  });
}

process.on('message', (message: LoadMessage) => {
  const reply = (answer: LoadReply) => process.send?.(answer);
  run(message.job).then(
    (result) => reply({ id: message.id, run: result }),
    (error: unknown) => reply({ id: message.id, error: String(error) }),
  );
});
process.on('disconnect', () => {
  agent.destroy();
  void Promise.all([...clients.values()].map((client) => client.connection.close())).finally(() =>
    process.exit(0),
  );
});
