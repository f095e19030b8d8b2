import { writeFileSync } from 'node:fs';
import { generatedPages, generatedText } from './generated-docs.js';

for (const page of generatedPages) {
  writeFileSync(page.path, await generatedText(page));
  console.log(`wrote ${page.path}`);
}
