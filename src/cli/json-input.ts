import { readFile } from 'node:fs/promises';
import { InvalidInputError } from '../starter/errors.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The JSON in a file, or on stdin when `source` is `-`; `option` names the option in the error. */
export async function readJsonInput(option: string, source: string): Promise<unknown> {
  let text: string;
  try {
    text = source === '-' ? await readStdin() : await readFile(source, 'utf8');
  } catch (error) {
    throw new InvalidInputError(option, `cannot read ${source}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidInputError(option, `${source === '-' ? 'stdin' : source} does not hold JSON`);
  }
}

/**
 * The FIDO assertion a widget produced, given either as the assertion itself or as the bank request body that
 * wraps it in `fido_assertion`.
 */
export async function readAssertion(option: string, source: string): Promise<unknown> {
  const json = await readJsonInput(option, source);
  return typeof json === 'object' && json !== null && 'fido_assertion' in json ? json.fido_assertion : json;
}
