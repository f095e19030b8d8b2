import { writeFileSync } from 'node:fs';
import { generatedDocs } from './generated-docs.js';

for (const page of await generatedDocs()) {
  writeFileSync(page.path, page.text);
  console.log(`wrote ${page.path}`);
}
