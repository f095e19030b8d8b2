import prettier from 'prettier';
import { commandExamples } from '../../src/cli/examples.js';
import { buildProgram } from '../../src/cli/program.js';
import { cliReference } from './cli-reference.js';
import { configurationReference } from './configuration-reference.js';

/** The command that rewrites the generated pages, named by the test that finds one out of date. */
export const regenerateCommand = 'npm run docs';

/** The pages generated from code, formatted as `prettier --check` wants them: path (from the root) and text. */
export async function generatedDocs(): Promise<{ path: string; text: string }[]> {
  const options = { ...(await prettier.resolveConfig('README.md')), parser: 'markdown' };
  const pages = [
    { path: 'docs/cli.md', text: cliReference(buildProgram(), commandExamples) },
    { path: 'docs/configuration.md', text: configurationReference() },
  ];
  return Promise.all(
    pages.map(async (page) => ({ ...page, text: await prettier.format(page.text, options) })),
  );
}
