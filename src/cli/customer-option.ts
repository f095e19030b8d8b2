import { Option } from 'commander';

/**
 * `--tax-number`, on every command that starts a customer's journey; the starter keeps only its keyed hash.
 */
export const taxNumberOption = () =>
  new Option(
    '--tax-number <cpf-or-cnpj>',
    "the customer's CPF or CNPJ; kept only as a keyed hash, for `bankflow support find`",
  );
