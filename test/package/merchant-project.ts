/**
 * A merchant backend's own project, outside bankflow's checkout, that depends on the packed bankflow: the
 * package test writes these files into a fresh directory, installs the tarball there and runs them. They are
 * written as a merchant would, against `bankflow/starter` only; bankflow's lint and type check never see
 * them.
 */

/** The project's package.json: an ES module project, as docs/starter.md asks. */
export const merchantPackageJson = { name: 'merchant-backend', private: true, type: 'module' };

/** A strict TypeScript configuration as a merchant would have it, compiling merchant.ts to out/. */
export const merchantTsconfig = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2022'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    // As most projects do: @temporalio/common's own declarations import `ms` without types.
    skipLibCheck: true,
    types: ['node'],
    outDir: 'out',
  },
  files: ['merchant.ts'],
};

/**
 * The ES module backend: cancels a boleto (argv[2]), starts a payment (argv[3..7]: external id, enrollment,
 * device, entity, virtual account) the bank refuses, then the same payment with another amount, and meets the
 * starter's errors. It prints one JSON line of what it saw. The `@ts-expect-error` lines fail the type check
 * if the starter's types were missing or `any`.
 */
export const merchantTs = `import {
  cancelBoleto,
  connectStarter,
  InvalidInputError,
  RequestRefusedError,
  startPayment,
  StartTermsConflictError,
  type StartPaymentInput,
} from 'bankflow/starter';

const [boletoId = '', externalId = '', enrollmentId = '', deviceId = '', entityId = '', virtualAccountId = ''] =
  process.argv.slice(2);

// @ts-expect-error -- the input's fields are typed: a misspelt one does not compile
const misspelt: Parameters<typeof cancelBoleto>[1] = { boletoid: boletoId };
// @ts-expect-error -- amounts are numbers of cents, not strings
const amount: StartPaymentInput['amountCents'] = '10.50';
void [misspelt, amount];

async function failureOf(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => undefined,
    (error: unknown) => error,
  );
}

const starter = await connectStarter();
try {
  const boleto = await cancelBoleto(starter, { boletoId });
  const status: string = boleto.status;

  const invalid = await failureOf(cancelBoleto(starter, { boletoId: 'not-a-uuid' }));
  if (!(invalid instanceof InvalidInputError)) throw new Error('expected an InvalidInputError, got ' + String(invalid));

  const payment: StartPaymentInput = {
    externalId,
    enrollmentId,
    deviceId,
    entityId,
    virtualAccountId,
    amountCents: 1050,
    description: 'Pedido 1234',
  };
  // The sandbox knows no such device: the bank refuses the payment, the start says so, and the terms stay.
  const refused = await failureOf(startPayment(starter, payment));
  if (!(refused instanceof RequestRefusedError)) {
    throw new Error('expected a RequestRefusedError, got ' + String(refused));
  }
  const conflict = await failureOf(startPayment(starter, { ...payment, amountCents: 2000 }));
  if (!(conflict instanceof StartTermsConflictError)) {
    throw new Error('expected a StartTermsConflictError, got ' + String(conflict));
  }

  console.log(
    JSON.stringify({
      boleto: { id: boleto.id, status },
      invalid: invalid.message,
      conflict: conflict.fields,
      refused: refused.workflowId,
    }),
  );
} finally {
  await starter.close();
}
`;

/**
 * A CommonJS backend: \`await import()\` works on every Node bankflow supports; \`require()\` of the ES
 * module works where Node has require(esm) on (20.19+, 22.12+), and gives the same module. Cancels a boleto
 * (argv[2]) through the imported starter and prints one JSON line.
 */
export const commonJsBackend = `const requireEsm = process.features.require_module === true;

async function main() {
  const starter = await import('bankflow/starter');
  const required = requireEsm ? require('bankflow/starter') : undefined;
  const context = await starter.connectStarter();
  try {
    const boleto = await starter.cancelBoleto(context, { boletoId: process.argv[2] });
    console.log(
      JSON.stringify({
        boleto: { id: boleto.id, status: boleto.status },
        requireEsm,
        requiredSameModule: required === undefined ? null : required.cancelBoleto === starter.cancelBoleto,
      }),
    );
  } finally {
    await context.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
`;
