import prettier from 'prettier';
import { openApiDocument } from '../../src/api/openapi.js';
import { apiRoutes } from '../../src/api/routes/index.js';
import { commandExamples } from '../../src/cli/examples.js';
import { devkitCommands } from '../../devkit/cli/commands.js';
import { buildProgram } from '../../src/cli/program.js';
import { cliReference } from './cli-reference.js';
import { configurationReference } from './configuration-reference.js';

/** The command that rewrites the generated pages, named by the test that finds one out of date. */
export const regenerateCommand = 'npm run docs';

/** The pages generated from code: path from the root, and how to write it. */
export const generatedPages = [
  {
    path: 'docs/cli.md',
    parser: 'markdown',
    generate: () => cliReference(buildProgram(devkitCommands), commandExamples),
  },
  { path: 'docs/configuration.md', parser: 'markdown', generate: configurationReference },
  // The merchant API's OpenAPI document, from the route table the server runs (src/api/routes/).
  { path: 'docs/openapi.json', parser: 'json', generate: () => JSON.stringify(openApiDocument(apiRoutes)) },
];

/** A page's text as `prettier --check` wants it. */
export async function generatedText(page: (typeof generatedPages)[number]): Promise<string> {
  const options = { ...(await prettier.resolveConfig(page.path)), parser: page.parser };
  return prettier.format(page.generate(), options);
}
